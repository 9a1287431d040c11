import { WorkbenchError } from '../errors.ts';
import { runGit } from './run-git.ts';

/** True when `path` is the top level of (or inside) a git work tree. Never throws for a missing path (false). */
export async function isGitRepository(path: string): Promise<boolean> {
  try {
    const { stdout, exitCode } = await runGit(path, ['rev-parse', '--is-inside-work-tree'], {
      okExitCodes: [0, 128],
    });
    return exitCode === 0 && stdout.trim() === 'true';
  } catch (error) {
    if (WorkbenchError.is(error) && error.code === 'NOT_A_GIT_REPOSITORY') return false;
    throw error;
  }
}

/** The absolute top level of the work tree containing `dir`; NOT_A_GIT_REPOSITORY (422) otherwise. */
export async function repositoryRoot(dir: string): Promise<string> {
  const { stdout } = await runGit(dir, ['rev-parse', '--show-toplevel'], {
    what: `reading the repository at ${dir}`,
  });
  return stdout.trim();
}

/** The sha of HEAD, or null on an unborn branch (a repository with no commits yet). */
export async function headCommit(dir: string): Promise<string | null> {
  const { stdout, exitCode } = await runGit(dir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
    okExitCodes: [0, 1],
  });
  return exitCode === 0 ? stdout.trim() : null;
}
