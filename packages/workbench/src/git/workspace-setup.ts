import { refExists } from './current-branch.ts';
import { runGit } from './run-git.ts';

/**
 * Points a fresh clone's `origin` at the source's own origin so a push goes where the user expects, and
 * replaces its remote-tracking refs (the source's local branches) with the source's view of that origin,
 * for the `branches` the task needs only (its base and its own branch, when the source knows them): a
 * repository with thousands of remote branches costs what two cost. Nothing touches the network: the refs
 * come from the source. Without an upstream, origin stays the source.
 */
export async function pointOriginAtUpstream(
  clone: string,
  source: string,
  upstream: string | null,
  branches: readonly string[],
): Promise<void> {
  if (!upstream) return;
  await runGit(clone, ['remote', 'set-url', 'origin', upstream]);
  const { stdout } = await runGit(clone, ['for-each-ref', '--format=%(refname)', 'refs/remotes/origin/']);
  const deletions = stdout
    .split('\n')
    .filter((ref) => ref !== '')
    .map((ref) => `delete ${ref}\n`)
    .join('');
  if (deletions) await runGit(clone, ['update-ref', '--no-deref', '--stdin'], { input: deletions });
  const wanted: string[] = [];
  for (const branch of new Set(branches)) {
    const ref = `refs/remotes/origin/${branch}`;
    if (await refExists(source, ref)) wanted.push(`+${ref}:${ref}`);
  }
  if (wanted.length > 0) {
    await runGit(clone, ['fetch', '--quiet', '--no-tags', '--', source, ...wanted], {
      what: `copying the remote branches ${branches.join(', ')} of ${source}`,
    });
  }
  const head = await runGit(source, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], {
    okExitCodes: [0, 1, 128],
  });
  const target = head.stdout.trim();
  if (head.exitCode === 0 && (await refExists(clone, target))) {
    await runGit(clone, ['symbolic-ref', 'refs/remotes/origin/HEAD', target]);
  }
}

/** Checks out `branch`: tracking origin's branch when it exists there, else new from `baseCommit`. */
export async function checkoutWorkspaceBranch(
  clone: string,
  branch: string,
  baseCommit: string,
): Promise<void> {
  const remoteRef = `refs/remotes/origin/${branch}`;
  const args = (await refExists(clone, remoteRef))
    ? ['checkout', '--quiet', '-B', branch, '--track', `origin/${branch}`]
    : ['checkout', '--quiet', '--no-track', '-B', branch, baseCommit];
  await runGit(clone, args, { what: `checking out branch ${branch}` });
}
