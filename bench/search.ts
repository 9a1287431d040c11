// File search over a generated tree of 20,000 files: grep, glob and search_files through the tool
// registry (path guard and ignore rules included), against `grep -rn` when the system has it.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCodingTools, createPathGuard } from '@keel/runtime';

const root = await mkdtemp(join(tmpdir(), 'keel-bench-tree-'));
const dirs = 200;
const filesPerDir = 100;
for (let d = 0; d < dirs; d++) {
  const dir = join(root, `pkg${d}`, 'src');
  await mkdir(dir, { recursive: true });
  await Promise.all(
    Array.from({ length: filesPerDir }, (_, f) =>
      writeFile(
        join(dir, `module${f}.ts`),
        `export const value${f} = ${f};\n// TODO item ${d}-${f}\n`.repeat(20),
      ),
    ),
  );
}

const tools = createCodingTools();
const context = {
  workdir: root,
  guard: await createPathGuard({ workdir: root }),
  signal: new AbortController().signal,
};
const time = async (name: string, run: () => Promise<unknown> | unknown) => {
  const started = performance.now();
  await run();
  console.log(
    JSON.stringify({ bench: name, files: dirs * filesPerDir, ms: Math.round(performance.now() - started) }),
  );
};
try {
  await time('grep_tool', () => tools.execute('grep', { pattern: 'TODO item 199-99' }, context));
  await time('glob_tool', () => tools.execute('glob', { pattern: '**/module9*.ts' }, context));
  await time('search_files_tool', () => tools.execute('search_files', { query: 'pkg19modul99' }, context));
  await time('system_grep_rn', () => {
    try {
      execFileSync('grep', ['-rn', 'TODO item 199-99', root], { stdio: 'ignore' });
    } catch {
      // grep exits 1 on no match; the time still counts.
    }
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
