import { runGit } from './run-git.ts';

/** The URL of `remote` (default origin), or null when there is no such remote. */
export async function remoteUrl(dir: string, remote = 'origin'): Promise<string | null> {
  // `git remote get-url` exits 2 for a missing remote and 128 when dir is no repository (which throws).
  const { stdout, exitCode } = await runGit(dir, ['remote', 'get-url', '--', remote], {
    okExitCodes: [0, 2],
    what: `reading the URL of remote ${remote}`,
  });
  return exitCode === 0 ? stdout.trim() : null;
}

/**
 * Where a workspace cloned from `source` pushes: the source's origin, or the source itself when it has none
 * (as `createWorkspace` set it up). Read from the user's repository at push time, so a workspace's own
 * `.git/config` cannot redirect the push.
 */
export async function sourcePushUrl(source: string): Promise<string> {
  return (await remoteUrl(source)) ?? source;
}
