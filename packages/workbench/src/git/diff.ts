import type { FileChange, RepoDiff } from './diff-types.ts';
import { assertOwnGitDir } from './own-git-dir.ts';
import { parseDiffStats } from './parse-diff-stats.ts';
import { resolveRevision } from './resolve-revision.ts';
import { runGit } from './run-git.ts';
import { workingTreeTree } from './working-tree.ts';

/** Default bound of `RepoDiff.patch`: enough for a review screen, small enough for a model prompt. */
export const defaultMaxPatchBytes = 1024 * 1024;

// Fixed prefixes, no colour, no external or textconv drivers, readable paths: whatever the user's config says.
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

/**
 * Diff from commit/snapshot `from` to `to` (a commit or snapshot sha; omitted = the current working tree,
 * untracked files included, read without touching the index). `patch` is bounded by `maxPatchBytes`.
 */
export async function diff(
  dir: string,
  from: string,
  to?: string,
  options: { maxPatchBytes?: number } = {},
): Promise<RepoDiff> {
  await assertOwnGitDir(dir);
  const fromTree = await resolveRevision(dir, from, 'tree');
  const toTree = to === undefined ? await workingTreeTree(dir) : await resolveRevision(dir, to, 'tree');
  const range = ['--end-of-options', fromTree, toTree];
  const nameStatus = await runGit(dir, [...diffArgs, '--name-status', '-z', ...range], {
    what: 'computing the diff',
  });
  const numstat = await runGit(dir, [...diffArgs, '--numstat', '-z', ...range], {
    what: 'computing the diff',
  });
  const files = parseDiffStats(nameStatus.stdout, numstat.stdout);
  const max = options.maxPatchBytes ?? defaultMaxPatchBytes;
  const patch = await runGit(dir, [...diffArgs, '--patch', ...range], {
    maxStdoutBytes: max,
    truncate: true,
    what: 'computing the diff',
  });
  return {
    files,
    patch: patch.truncated ? truncatePatch(patch.stdout, max) : patch.stdout,
    additions: sum(files, 'additions'),
    deletions: sum(files, 'deletions'),
    truncated: patch.truncated,
  };
}

function truncatePatch(patch: string, max: number): string {
  const cut = patch.lastIndexOf('\n');
  return `${patch.slice(0, cut + 1)}\n[diff truncated: the patch is larger than ${max} bytes; the file list is complete]\n`;
}

function sum(files: FileChange[], key: 'additions' | 'deletions'): number {
  return files.reduce((total, file) => total + file[key], 0);
}
