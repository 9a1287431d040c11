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
