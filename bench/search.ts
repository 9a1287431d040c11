// File search over a generated tree of 20,000 files: grep, glob and search_files through the tools (path
// guard and ignore rules included), against ripgrep and `grep -rn` on the same tree in the same run. grep
// is timed twice: as shipped (ripgrep ruling files out when `rg` is on the machine) and walker only.
// Each figure is the median of 5 runs after a warm-up.
//   grep tool: target within 2× of ripgrep (`rg -n`) on the same tree.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCodingTools, createPathGuard } from '@keel/runtime';
import { createGrepTool } from '../packages/runtime/src/tools/search/index.ts';
import { medianMs, report } from './report.ts';

const dirs = 200;
const filesPerDir = 100;
const runs = 5;
const pattern = 'TODO item 199-99';

const root = await mkdtemp(join(tmpdir(), 'keel-bench-tree-'));
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

/** Runs a system program to the end; exit status 1 (no match) counts like any other. */
function system(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch (error) {
    return (error as { status?: number }).status === 1;
  }
}

const tools = createCodingTools();
const context = {
  workdir: root,
  guard: await createPathGuard({ workdir: root }),
  signal: new AbortController().signal,
};
const walkerGrep = createGrepTool({ ripgrep: null });
const hasRipgrep = system('rg', ['--version']);
const details = { files: dirs * filesPerDir, runs, pattern };
try {
  const rg = hasRipgrep ? await medianMs(runs, () => system('rg', ['-n', pattern, root])) : undefined;
  const grepRn = await medianMs(runs, () => system('grep', ['-rn', pattern, root]));
  const reference =
    rg === undefined ? { name: 'grep -rn (ms)', value: grepRn } : { name: 'rg -n (ms)', value: rg };
  if (rg !== undefined)
    report({ bench: 'search', figure: 'rg -n, the reference', value: rg, unit: 'ms', details });
  else
    report({
      bench: 'search',
      figure: 'ripgrep is not installed: grep -rn is the reference',
      value: grepRn,
      unit: 'ms',
    });
  report({ bench: 'search', figure: 'grep -rn', value: grepRn, unit: 'ms', reference, details });

  const shipped = await medianMs(runs, () => tools.execute('grep', { pattern }, context));
  report({
    bench: 'search',
    figure: hasRipgrep ? 'grep tool (with ripgrep)' : 'grep tool (no ripgrep here: walker only)',
    value: shipped,
    unit: 'ms',
    target: 'within 2× of rg -n',
    reference,
    details,
  });
  const walker = await medianMs(runs, () => walkerGrep.execute(context, { pattern, path: '.' }));
  report({
    bench: 'search',
    figure: 'grep tool, walker only',
    value: walker,
    unit: 'ms',
    reference,
    details,
  });
  const glob = await medianMs(runs, () => tools.execute('glob', { pattern: '**/module9*.ts' }, context));
  report({ bench: 'search', figure: 'glob tool', value: glob, unit: 'ms', reference, details });
  const fuzzy = await medianMs(runs, () => tools.execute('search_files', { query: 'pkg19modul99' }, context));
  report({ bench: 'search', figure: 'search_files tool', value: fuzzy, unit: 'ms', reference, details });
} finally {
  await rm(root, { recursive: true, force: true });
}
