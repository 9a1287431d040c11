import { runGit } from './run-git.ts';

/**
 * The files of the working tree under `dir` (paths relative to `dir`, `/`-separated): tracked files still
 * present plus untracked ones, with .gitignore honoured. At most `maxFiles` (default 200,000) are returned.
 */
export async function listFiles(dir: string, options: { maxFiles?: number } = {}): Promise<string[]> {
  const listing = await runGit(dir, ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    what: `listing the files of ${dir}`,
  });
  const deleted = await runGit(dir, ['ls-files', '--deleted', '-z'], { what: `listing the files of ${dir}` });
  const gone = new Set(deleted.stdout.split('\0'));
  // An unmerged file is listed once per conflict stage: the Set keeps one.
  const files = new Set(listing.stdout.split('\0').filter((path) => path !== '' && !gone.has(path)));
  return [...files].slice(0, options.maxFiles ?? 200_000);
}
