// A task's workspace on a large repository: the workbench's `createWorkspace` (stage 01, one repository)
// on a synthetic monorepo of 100,000 files, against `git worktree add` of the same commit on the same
// repository in the same run (the floor: it writes the same files and copies no objects).
//   target: within 2× of `git worktree add`.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkspace } from '../packages/workbench/src/git/index.ts';
import { report } from './report.ts';

const files = Number(process.env.KEEL_BENCH_FILES ?? 100_000);
const perFolder = 500;

const home = await mkdtemp(join(tmpdir(), 'keel-bench-workspace-'));
const repo = join(home, 'monorepo');
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', '-c', 'gc.auto=0', ...args], {
    cwd,
    stdio: 'pipe',
  });

try {
  await mkdir(repo);
  git(repo, 'init', '-q', '-b', 'main');
  for (let start = 0; start < files; start += perFolder) {
    const folder = join(repo, 'packages', `pkg${start / perFolder}`, 'src');
    await mkdir(folder, { recursive: true });
    await Promise.all(
      Array.from({ length: Math.min(perFolder, files - start) }, (_, i) =>
        writeFile(join(folder, `module${i}.ts`), `export const value${start + i} = ${start + i};\n`),
      ),
    );
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'a large repository');
  git(repo, 'gc', '-q');

  const worktreeStarted = performance.now();
  git(repo, 'worktree', 'add', '-q', '-b', 'bench-worktree', join(home, 'worktree'));
  const worktreeMs = performance.now() - worktreeStarted;

  const started = performance.now();
  await createWorkspace({ source: repo, dest: join(home, 'tasks', 't1', 'monorepo'), branch: 'keel/bench' });
  const ms = performance.now() - started;

  report({
    bench: 'workbench-workspace',
    figure: `a task's workspace of a ${files.toLocaleString('en')}-file repository (createWorkspace)`,
    value: ms,
    unit: 'ms',
    target: 'within 2× of git worktree add',
    reference: { name: 'git worktree add of the same commit', value: worktreeMs },
    details: { files },
  });
} finally {
  await rm(home, { recursive: true, force: true });
}
