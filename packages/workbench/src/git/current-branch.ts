import { WorkbenchError } from '../errors.ts';
import { runGit } from './run-git.ts';

/** The repository's current branch name (or the default branch of its remote when detached), for MR targets. */
export async function currentBranch(dir: string): Promise<string> {
  const head = await symbolicRef(dir, 'HEAD', [0, 1]);
  if (head?.startsWith('refs/heads/')) return head.slice('refs/heads/'.length);
  const remoteHead = await symbolicRef(dir, 'refs/remotes/origin/HEAD', [0, 1, 128]);
  if (remoteHead?.startsWith('refs/remotes/origin/')) return remoteHead.slice('refs/remotes/origin/'.length);
  // Detached with no recorded remote default: fall back to the usual default names, if present.
  for (const ref of [
    'refs/remotes/origin/main',
    'refs/remotes/origin/master',
    'refs/heads/main',
    'refs/heads/master',
  ]) {
    if (await refExists(dir, ref)) return ref.split('/').at(-1) ?? 'main';
  }
  throw new WorkbenchError(
    'REPOSITORY_UNUSABLE',
    `${dir} has a detached HEAD and no default branch could be found`,
  );
}

/** The target of a symbolic ref, or null; `okExitCodes` says which failures mean "none" (128: no such ref). */
async function symbolicRef(dir: string, ref: string, okExitCodes: number[]): Promise<string | null> {
  const { stdout, exitCode } = await runGit(dir, ['symbolic-ref', '--quiet', ref], { okExitCodes });
  return exitCode === 0 ? stdout.trim() : null;
}

/** True when the fully qualified `ref` exists in `dir`. */
export async function refExists(dir: string, ref: string): Promise<boolean> {
  const { exitCode } = await runGit(dir, ['show-ref', '--verify', '--quiet', ref], { okExitCodes: [0, 1] });
  return exitCode === 0;
}
