import { fixedIdentityEnv } from './commit-identity.ts';
import { headCommit } from './is-git-repository.ts';
import { assertOwnGitDir } from './own-git-dir.ts';
import { resolveRevision } from './resolve-revision.ts';
import { runGit } from './run-git.ts';
import { stageWorkingTree, withTempIndex, workingTreeTree } from './working-tree.ts';

/** Where snapshot commits are kept alive (one ref per snapshot, named by its sha). */
export const snapshotRefPrefix = 'refs/workbench/snapshots/';

/**
 * Records the working tree (tracked and untracked files, not ignored ones) as a commit whose parent is HEAD,
 * without touching HEAD, the index or any file, keeps it with a ref under `refs/workbench/snapshots/`, and
 * returns its sha. The commit is Keel's own object, so it is authored by Keel whatever the user's config.
 */
export async function snapshot(dir: string, label?: string): Promise<string> {
  await assertOwnGitDir(dir);
  const tree = await workingTreeTree(dir);
  const parent = await headCommit(dir);
  const message = label ? `workbench snapshot: ${label.replace(/\s+/g, ' ').trim()}` : 'workbench snapshot';
  const args = ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message];
  const { stdout } = await runGit(dir, args, { env: fixedIdentityEnv(), what: 'recording a snapshot' });
  const sha = stdout.trim();
  await runGit(dir, ['update-ref', `${snapshotRefPrefix}${sha}`, sha], { what: 'keeping the snapshot' });
  return sha;
}

/**
 * Puts the working tree back exactly as it was at snapshot (or commit) `sha`: files created since are removed,
 * deleted and modified ones restored, ignored files left alone. HEAD and the branch stay; the index is reset
 * to HEAD, so nothing staged by the undone work survives.
 */
export async function restoreSnapshot(dir: string, sha: string): Promise<void> {
  await assertOwnGitDir(dir);
  const commit = await resolveRevision(dir, sha, 'commit');
  await withTempIndex(dir, async (env) => {
    // The private index lists every file now present; a reset to the snapshot's tree then removes those
    // not in it and rewrites those that differ, leaving ignored files (never in the index) alone.
    await stageWorkingTree(dir, env);
    await runGit(dir, ['read-tree', '--reset', '-u', commit], { env, what: `restoring snapshot ${sha}` });
  });
  const head = await headCommit(dir);
  await runGit(dir, head ? ['reset', '--quiet'] : ['read-tree', '--empty'], { what: 'resetting the index' });
}
