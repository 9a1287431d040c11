import { WorkbenchError } from '../errors.ts';
import { offLoop } from '../off-loop/index.ts';
import { defaultMaxPatchBytes, diffArgs, truncatePatch } from './diff.ts';
import { assertOwnGitDir } from './own-git-dir.ts';
import { parseRawNumstat } from './parse-diff-stats.ts';
import { resolveRevision } from './resolve-revision.ts';
import { runGit } from './run-git.ts';
import { withWorkingTreeIndex } from './working-tree.ts';

export interface FilePatch {
  /** git's unified diff of the one file, cut at a line boundary with a marker line past the limit. */
  patch: string;
  truncated: boolean;
}

/**
 * The patch of one changed file, from commit/snapshot `from` to the current working tree (as `diff()`
 * computes the whole: untracked files included, the index untouched). `path` must be one of that diff's
 * files (its new path): anything else, and any path that could leave the repository, is refused (400)
 * before git sees it as a pathspec. A renamed file's patch names both paths, as in the full diff. It runs in
 * the workbench's worker thread, as `diff` does.
 */
export const filePatch: (
  dir: string,
  from: string,
  path: string,
  options?: { maxPatchBytes?: number },
) => Promise<FilePatch> = offLoop(import.meta.url, 'filePatchHere', filePatchHere);

/** `filePatch` on the calling thread (the worker's). */
export async function filePatchHere(
  dir: string,
  from: string,
  path: string,
  options: { maxPatchBytes?: number } = {},
): Promise<FilePatch> {
  assertPlainPath(path);
  await assertOwnGitDir(dir);
  const fromTree = await resolveRevision(dir, from, 'tree');
  const max = options.maxPatchBytes ?? defaultMaxPatchBytes;
  // As diff() reads the working tree: in place, untracked files included, a submodule by its commit.
  const range = ['--ignore-submodules=dirty', '--end-of-options', fromTree, '--'];
  return withWorkingTreeIndex(dir, async (env) => {
    const timeoutMs = 10 * 60_000;
    const stats = await runGit(dir, [...diffArgs, '--raw', '--numstat', '-z', ...range], {
      env,
      timeoutMs,
      what: 'computing the diff',
    });
    const change = parseRawNumstat(stats.stdout).find((file) => file.path === path);
    if (!change) {
      throw new WorkbenchError('INVALID_PARAMS', `'${path}' is not one of the diff's files.`, { path });
    }
    // Literal pathspecs: a `*` or `:(…)` in a file's name is its name, not a pattern.
    const paths = [change.path, ...(change.old_path ? [change.old_path] : [])].map(
      (each) => `:(literal)${each}`,
    );
    const patch = await runGit(dir, [...diffArgs, '--patch', ...range, ...paths], {
      env,
      timeoutMs,
      maxStdoutBytes: max,
      truncate: true,
      what: 'computing the diff',
    });
    return {
      patch: patch.truncated ? truncatePatch(patch.stdout, max) : patch.stdout,
      truncated: patch.truncated,
    };
  });
}

/** A relative path inside the repository: no absolute path, no `.`/`..` segment, no NUL or empty segment. */
function assertPlainPath(path: string): void {
  const segments = path.split('/');
  const plain =
    path !== '' &&
    !path.includes('\0') &&
    segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..');
  if (!plain) {
    throw new WorkbenchError('INVALID_PARAMS', 'path must be a relative path inside the repository.', {
      path,
    });
  }
}
