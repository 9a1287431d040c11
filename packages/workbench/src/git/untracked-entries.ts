import { runGit } from './run-git.ts';

/**
 * The untracked entries of the working tree at `dir` that .gitignore does not ignore, a wholly untracked
 * folder as one entry ending in `/` (`node_modules/`), relative to `dir`.
 */
export async function untrackedEntries(dir: string): Promise<string[]> {
  const listing = await runGit(
    dir,
    ['ls-files', '--others', '--exclude-standard', '--directory', '--no-empty-directory', '-z'],
    { what: `listing the untracked files of ${dir}` },
  );
  return listing.stdout.split('\0').filter((path) => path !== '');
}
