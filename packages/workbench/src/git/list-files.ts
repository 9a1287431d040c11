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

/**
 * The same files as `listFiles` in two parts listed at once, for a caller that looks at each path itself:
 * the tracked ones (read from the index in milliseconds, tracked files the working tree lost included, an
 * unmerged one once) and the untracked, not ignored, ones (git walks the working tree for them, which takes
 * as long as the rest of a scan of 100,000 files: the caller works on the tracked ones meanwhile).
 */
export function listTrackedAndUntracked(dir: string): {
  tracked: Promise<string[]>;
  untracked: Promise<string[]>;
} {
  const what = `listing the files of ${dir}`;
  const tracked = runGit(dir, ['ls-files', '--cached', '-z'], { what }).then(({ stdout }) => {
    const files: string[] = [];
    let previous = '';
    for (const path of stdout.split('\0')) {
      // An unmerged file is listed once per conflict stage, one line after the other.
      if (path !== '' && path !== previous) files.push(path);
      previous = path;
    }
    return files;
  });
  const untracked = runGit(dir, ['ls-files', '--others', '--exclude-standard', '-z'], { what }).then(
    ({ stdout }) => stdout.split('\0').filter((path) => path !== ''),
  );
  return { tracked, untracked };
}
