import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runGit } from './run-git.ts';
import type { TempDir } from './temp-dir.ts';
import { createTempDir } from './temp-dir.ts';

/** Options of `createTempGitRepo`. */
export type TempGitRepoOptions = {
  /** Files to write, by path relative to the repository root (folders are created). */
  files?: Record<string, string>;
  /** Make an initial commit on `main` (default true; an empty commit when there are no files). */
  commit?: boolean;
};

/** A temporary git repository on branch `main`, with a local user name and email. */
export type TempGitRepo = TempDir & {
  /** Run git in the repository (global config ignored) and return its stdout. */
  git(...args: string[]): Promise<string>;
};

/**
 * Create a real git repository in a temporary directory.
 * @example
 * await using repo = await createTempGitRepo({ files: { 'README.md': '# hi\n' } });
 * await repo.git('log', '--oneline');
 */
export async function createTempGitRepo(options: TempGitRepoOptions = {}): Promise<TempGitRepo> {
  const dir = await createTempDir({ prefix: 'keel-repo-' });
  const git = (...args: string[]): Promise<string> => runGit(dir.path, args);
  try {
    await git('init', '-q', '-b', 'main');
    await git('config', 'user.name', 'Keel Test');
    await git('config', 'user.email', 'test@keel.invalid');
    await git('config', 'commit.gpgsign', 'false');
    for (const [relativePath, content] of Object.entries(options.files ?? {})) {
      const target = join(dir.path, relativePath);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
    }
    if (options.commit !== false) {
      await git('add', '-A');
      await git('commit', '-q', '--allow-empty', '-m', 'Initial commit');
    }
  } catch (error) {
    await dir.remove();
    throw error;
  }
  return { ...dir, git };
}
