import { WorkbenchError } from '../errors.ts';
import { defaultMaxPatchBytes } from './diff.ts';
import { assertOwnGitDir } from './own-git-dir.ts';
import { parseDiffStats } from './parse-diff-stats.ts';
import { resolveRevision } from './resolve-revision.ts';
import { runGit } from './run-git.ts';
import { workingTreeTree } from './working-tree.ts';

// The same arguments as `diff()` (diff.ts): a file's patch here is byte for byte its section of the task's.
const diffArgs = [
  '-c',
  'core.quotePath=false',
  'diff',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--find-renames',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];

export interface FilePatch {
  /** git's unified diff of the one file, cut at a line boundary with a marker line past the limit. */
  patch: string;
  truncated: boolean;
}

/**
 * The patch of one changed file, from commit/snapshot `from` to the current working tree (as `diff()`
 * computes the whole: untracked files included, the index untouched). `path` must be one of that diff's
 * files (its new path): anything else, and any path that could leave the repository, is refused (400)
 * before git sees it as a pathspec. A renamed file's patch names both paths, as in the full diff.
 */
export async function filePatch(
  dir: string,
  from: string,
  path: string,
  options: { maxPatchBytes?: number } = {},
): Promise<FilePatch> {
  assertPlainPath(path);
  await assertOwnGitDir(dir);
  const fromTree = await resolveRevision(dir, from, 'tree');
  const toTree = await workingTreeTree(dir);
  const range = ['--end-of-options', fromTree, toTree];
  const nameStatus = await runGit(dir, [...diffArgs, '--name-status', '-z', ...range], {
    what: 'computing the diff',
  });
  const change = parseDiffStats(nameStatus.stdout, '').find((file) => file.path === path);
  if (!change) {
    throw new WorkbenchError('INVALID_PARAMS', `'${path}' is not one of the diff's files.`, { path });
  }
  // Literal pathspecs: a `*` or `:(…)` in a file's name is its name, not a pattern.
  const paths = [change.path, ...(change.old_path ? [change.old_path] : [])].map(
    (each) => `:(literal)${each}`,
  );
  const max = options.maxPatchBytes ?? defaultMaxPatchBytes;
  const patch = await runGit(dir, [...diffArgs, '--patch', ...range, '--', ...paths], {
    maxStdoutBytes: max,
    truncate: true,
    what: 'computing the diff',
  });
  return {
    patch: patch.truncated ? truncated(patch.stdout, max) : patch.stdout,
    truncated: patch.truncated,
  };
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

function truncated(patch: string, max: number): string {
  const cut = patch.lastIndexOf('\n');
  return `${patch.slice(0, cut + 1)}\n[diff truncated: the patch is larger than ${max} bytes]\n`;
}
