import { offLoop } from '../off-loop/index.ts';
import type { FileChange, RepoDiff } from './diff-types.ts';
import { assertOwnGitDir } from './own-git-dir.ts';
import { parseRawNumstat } from './parse-diff-stats.ts';
import { resolveRevision } from './resolve-revision.ts';
import { runGit } from './run-git.ts';
import { withWorkingTreeIndex } from './working-tree.ts';

/** Default bound of `RepoDiff.patch`: enough for a review screen, small enough for a model prompt. */
export const defaultMaxPatchBytes = 1024 * 1024;

// Fixed prefixes, no colour, no external or textconv drivers, readable paths: whatever the user's config says.
export const diffArgs = [
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
 *
 * Two git runs: the file list with its counts (`--raw --numstat`, complete), then the patch (stopped at the
 * bound). The working tree is diffed in place (`git diff <tree>` with a private index naming untracked files,
 * see `withWorkingTreeIndex`): the same files, counts and patch as a diff to the tree `snapshot()` records,
 * without hashing and writing every changed file into the object store first.
 *
 * It runs in the workbench's worker thread: each of its git runs can hold the thread that spawns it for tens
 * of milliseconds on a loaded machine, and the output of a 5,000-file change is megabytes to collect and
 * parse; the service's event loop waits for none of it (issue #44).
 */
export const diff: (
  dir: string,
  from: string,
  to?: string,
  options?: { maxPatchBytes?: number },
) => Promise<RepoDiff> = offLoop(import.meta.url, 'diffHere', diffHere);

/** `diff` on the calling thread (the worker's). */
export async function diffHere(
  dir: string,
  from: string,
  to?: string,
  options: { maxPatchBytes?: number } = {},
): Promise<RepoDiff> {
  await assertOwnGitDir(dir);
  const fromTree = await resolveRevision(dir, from, 'tree');
  const max = options.maxPatchBytes ?? defaultMaxPatchBytes;
  if (to === undefined) {
    // A submodule's own uncommitted work is not part of this repository's tree: only its commit counts.
    const range = ['--ignore-submodules=dirty', '--end-of-options', fromTree, '--'];
    return withWorkingTreeIndex(dir, (env) => diffRange(dir, range, max, env));
  }
  const toTree = await resolveRevision(dir, to, 'tree');
  return diffRange(dir, ['--end-of-options', fromTree, toTree, '--'], max, {});
}

async function diffRange(
  dir: string,
  range: readonly string[],
  max: number,
  env: Record<string, string>,
): Promise<RepoDiff> {
  // Each run may read the whole working tree, as the staging it replaces did: the same time limit.
  const timeoutMs = 10 * 60_000;
  const stats = await runGit(dir, [...diffArgs, '--raw', '--numstat', '-z', ...range], {
    env,
    timeoutMs,
    what: 'computing the diff',
  });
  const files = parseRawNumstat(stats.stdout);
  const patch = await runGit(dir, [...diffArgs, '--patch', ...range], {
    env,
    timeoutMs,
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

export function truncatePatch(patch: string, max: number): string {
  const cut = patch.lastIndexOf('\n');
  return `${patch.slice(0, cut + 1)}\n[diff truncated: the patch is larger than ${max} bytes; the file list is complete]\n`;
}

function sum(files: FileChange[], key: 'additions' | 'deletions'): number {
  return files.reduce((total, file) => total + file[key], 0);
}
