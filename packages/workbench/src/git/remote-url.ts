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
