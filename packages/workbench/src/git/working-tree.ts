import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runGit } from './run-git.ts';

/**
 * Runs `task` with a private index file (GIT_INDEX_FILE) so that the repository's own index is never
 * touched. The private index starts as a copy of the real one: git then re-hashes only the files whose
 * stat data changed, which keeps snapshots of big repositories cheap.
 */
export async function withTempIndex<T>(
  dir: string,
  task: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  const { stdout } = await runGit(dir, ['rev-parse', '--git-path', 'index'], {
    what: `reading the repository at ${dir}`,
  });
  const realIndex = resolve(dir, stdout.trim());
  const folder = await mkdtemp(join(tmpdir(), 'keel-index-'));
  const index = join(folder, 'index');
  try {
    await copyFile(realIndex, index).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    return await task({ GIT_INDEX_FILE: index });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Stages the whole working tree (tracked and untracked, not ignored) into the index named by `env`. */
export async function stageWorkingTree(dir: string, env: Record<string, string>): Promise<void> {
  await runGit(dir, ['add', '--all', '--', ':/'], {
    env,
    what: 'reading the working tree',
    timeoutMs: 10 * 60_000,
  });
}

/** The tree object of the current working tree, written without touching HEAD, the index or any file. */
export async function workingTreeTree(dir: string): Promise<string> {
  return withTempIndex(dir, async (env) => {
    await stageWorkingTree(dir, env);
    const { stdout } = await runGit(dir, ['write-tree'], { env });
    return stdout.trim();
  });
}

/**
 * Runs `task` with a private index in which the working tree's untracked files (not ignored ones) are
 * recorded as intent-to-add and deleted files are removed, so that `git diff <tree>` compares that tree with
 * the working tree exactly as with `workingTreeTree`'s tree, untracked files included. Unlike staging, this
 * writes no object (but the empty blob, which intent-to-add entries name): on a 100,000-file repository with
 * 5,000 changed files, `git add --all` spent seconds hashing and writing 5,000 loose objects that a diff never
 * needed (docs/performance.md).
 */
export async function withWorkingTreeIndex<T>(
  dir: string,
  task: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  return withTempIndex(dir, async (env) => {
    await runGit(dir, ['add', '--all', '--intent-to-add', '--', ':/'], {
      env,
      what: 'reading the working tree',
      timeoutMs: 10 * 60_000,
    });
    return task(env);
  });
}
