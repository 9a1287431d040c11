import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { WorkbenchError } from '../errors.ts';
import { currentBranch, refExists } from './current-branch.ts';
import { redactCredentials } from './git-error.ts';
import { headCommit, repositoryRoot } from './is-git-repository.ts';
import { remoteUrl } from './remote-url.ts';
import { runGit } from './run-git.ts';
import type { WorkspaceOrigin } from './workspace-config.ts';
import { writeWorkspaceOrigin } from './workspace-config.ts';
import { inspectDest } from './workspace-dest.ts';
import { checkoutWorkspaceBranch, pointOriginAtUpstream } from './workspace-setup.ts';

export interface WorkspaceInfo {
  /** Absolute path of the workspace. */
  dir: string;
  /** The checked-out task branch. */
  branch: string;
  /**
   * Where `origin` points: the source's own origin, or the source path when it has none. Without credentials
   * (`https://***@host/…`): it is stored and shown; pushes use the workspace's own git config.
   */
  originUrl: string | null;
  /** The commit the branch started from (the source's HEAD, or the remote branch's tip when it existed). */
  baseCommit: string;
  /** The source's current branch then: the merge request's target. */
  baseBranch: string;
}

/**
 * Copies `source` into `dest` as an isolated workspace: a local `git clone` (objects hard-linked on the same
 * filesystem, copied across), `origin` pointed at the source's own origin (it stays the source path when
 * there is none), then `branch` checked out: tracking `origin/<branch>` when the source knows that remote branch, else new from the source's HEAD.
 * Uncommitted changes of the source are not copied. The clone is prepared in a sibling temporary folder and
 * renamed into place, so `dest` is either absent or complete: a retry after a crash starts clean, and a retry
 * after success returns the existing workspace untouched. Any other `dest` is refused (WORKSPACE_EXISTS, 409).
 * @example
 * const ws = await createWorkspace({ source: '/code/shop', dest: `${home}/tasks/t1/shop`, branch: 'keel/t1' });
 */
export async function createWorkspace(options: {
  source: string;
  dest: string;
  branch: string;
}): Promise<WorkspaceInfo> {
  const dest = resolve(options.dest);
  const source = await repositoryRoot(resolve(options.source));
  await assertBranchName(options.branch);
  const state = await inspectDest(dest, source);
  if (state.kind === 'workspace') return existingWorkspace(dest, options.branch, state.origin);

  const sourceHead = await headCommit(source);
  if (!sourceHead)
    throw new WorkbenchError('REPOSITORY_UNUSABLE', `${source} has no commits yet: commit something first`);
  const baseBranch = await currentBranch(source);
  await mkdir(dirname(dest), { recursive: true }).catch((error: Error) => {
    throw new WorkbenchError('GIT_ERROR', `cannot create the folder of ${dest}: ${error.message}`);
  });
  const staging = join(dirname(dest), `.${basename(dest)}.workbench-${randomUUID().slice(0, 8)}`);
  try {
    const origin = await prepareClone(staging, { source, sourceHead, baseBranch, branch: options.branch });
    const moved = await rename(staging, dest).then(
      () => true,
      () => false,
    );
    // Losing a race with a concurrent call for the same dest is fine when the winner made the same workspace.
    if (!moved) return await settledWorkspace(dest, source, options.branch);
    return { dir: dest, branch: options.branch, originUrl: await shownOrigin(dest), ...pick(origin) };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function prepareClone(
  staging: string,
  plan: { source: string; sourceHead: string; baseBranch: string; branch: string },
): Promise<WorkspaceOrigin> {
  await runGit(
    dirname(staging),
    // Not `--local`: given explicitly, git fails where it cannot hard-link (WORKBENCH_HOME on another
    // filesystem); implied by a local path, it links where it can and copies elsewhere. One branch, what
    // the source's HEAD is on (or its detached commit): thousands of branches cost what one costs.
    ['clone', '--no-checkout', '--quiet', '--single-branch', '--', plan.source, staging],
    {
      what: `cloning ${plan.source}`,
      timeoutMs: 10 * 60_000,
    },
  );
  // A single-branch clone fetches one branch only, and git then refuses to track any other: the usual
  // refspec again, so the task branch can track origin's.
  await runGit(staging, ['config', 'remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*']);
  // The task's own branch, when the source has it (a task started again): the checkout continues it.
  const own = `refs/heads/${plan.branch}`;
  if (plan.branch !== plan.baseBranch && (await refExists(plan.source, own))) {
    await runGit(
      staging,
      ['fetch', '--quiet', '--no-tags', '--', plan.source, `+${own}:refs/remotes/origin/${plan.branch}`],
      {
        what: `copying branch ${plan.branch} of ${plan.source}`,
      },
    );
  }
  await pointOriginAtUpstream(staging, plan.source, await remoteUrl(plan.source), [
    plan.baseBranch,
    plan.branch,
  ]);
  await checkoutWorkspaceBranch(staging, plan.branch, plan.sourceHead);
  // The base is what the branch starts from: the source's HEAD, or the remote branch when it existed.
  const baseCommit = (await headCommit(staging)) ?? plan.sourceHead;
  const origin = { source: plan.source, baseCommit, baseBranch: plan.baseBranch };
  await writeWorkspaceOrigin(staging, origin);
  return origin;
}

async function existingWorkspace(
  dest: string,
  branch: string,
  origin: WorkspaceOrigin,
): Promise<WorkspaceInfo> {
  const head = await currentBranch(dest);
  if (head !== branch) {
    throw new WorkbenchError(
      'WORKSPACE_EXISTS',
      `${dest} is already a workspace, on branch ${head} (not ${branch})`,
    );
  }
  return { dir: dest, branch, originUrl: await shownOrigin(dest), ...pick(origin) };
}

async function settledWorkspace(dest: string, source: string, branch: string): Promise<WorkspaceInfo> {
  const state = await inspectDest(dest, source);
  if (state.kind === 'workspace') return existingWorkspace(dest, branch, state.origin);
  throw new WorkbenchError('GIT_ERROR', `could not move the new workspace into ${dest}`);
}

/** The workspace's origin URL as it may be stored and returned: with no credentials in it. */
async function shownOrigin(dir: string): Promise<string | null> {
  const url = await remoteUrl(dir);
  return url === null ? null : redactCredentials(url);
}

function pick(origin: WorkspaceOrigin): { baseCommit: string; baseBranch: string } {
  return { baseCommit: origin.baseCommit, baseBranch: origin.baseBranch };
}

async function assertBranchName(branch: string): Promise<void> {
  const { exitCode } = await runGit(tmpdir(), ['check-ref-format', '--branch', branch], {
    okExitCodes: [0, 1, 128],
  });
  if (exitCode !== 0 || branch.startsWith('-')) {
    throw new WorkbenchError('REPOSITORY_UNUSABLE', `"${branch}" is not a valid git branch name`);
  }
}
