import { WorkbenchError } from '../../../errors.ts';
import {
  commitAll,
  compareLink,
  detectProvider,
  diff,
  mergeRequestPushOptions,
  openGitHubPullRequest,
  parseRepoSlug,
  pushBranch,
  redactCredentials,
  sourcePushUrl,
} from '../../../git/index.ts';
import type { RunnerOutcome } from '../../../runners/index.ts';
import type { SessionRecord } from '../../../sessions/index.ts';
import { changeSummary } from '../../change-summary.ts';
import {
  claim,
  createTaskSession,
  reserveSession,
  stageSession,
  type TaskDeps,
  taskRunner,
} from '../../deps.ts';
import { followable } from '../../merge-request-follower.ts';
import { reservedTurn, startAutomatically, taskOfSucceededTurn } from '../../stage-errors.ts';
import type { FollowedMergeRequest, SubmitResult, Task } from '../../types.ts';
import { cleanCommitMessage, commitMessageAdjustPrompt, commitMessagePrompt } from './prompts.ts';
import { taskDiff } from './task-diff.ts';

const maxPatchChars = 60_000;

/** Starts (or, with `message`, adjusts) the AI commit message in the task's review session. */
export async function startCommitMessage(deps: TaskDeps, taskId: string, message: string | undefined) {
  const task = await deps.store.check(taskId, 'commit_message');
  const session = await reviewSession(deps, task);
  // Held before the diff is computed: a second request meanwhile is refused, not run twice.
  const reservation = await reserveSession(
    deps,
    taskId,
    session.id,
    message ? 'adjusting the commit message' : 'writing the commit message',
  );
  let prompt: string;
  try {
    const first = !session.runner_session_id;
    if (first || !message) {
      const changes = await taskDiff(deps, taskId);
      const summary = changeSummary(changes.repositories);
      const patch = changes.repositories.map((repo) => `# ${repo.repository}\n${repo.patch}`).join('\n');
      prompt = commitMessagePrompt(
        task,
        summary,
        patch.length > maxPatchChars ? `${patch.slice(0, maxPatchChars)}\n[… cut]` : patch,
      );
      if (message) prompt += `\n\nAlso: ${message}`;
    } else {
      prompt = commitMessageAdjustPrompt(message, task.commit_message);
    }
  } catch (error) {
    reservation.release();
    throw error;
  }
  const step = {
    what: message ? 'Adjusting the commit message' : 'Writing the commit message',
    retry: `POST /api/tasks/${taskId}/commit-message`,
  };
  deps.background.run(() =>
    reservedTurn(deps, taskId, reservation, step, () => ({
      prompt,
      shownAs: message ?? 'Write the commit message.',
    })),
  );
  return { task: await deps.store.get(taskId), session: await deps.sessions.get(session.id) };
}

/** After every turn of the review session in REVIEWING: its answer is the commit message. */
export async function reviewTurnEnded(
  deps: TaskDeps,
  session: SessionRecord,
  outcome: RunnerOutcome,
): Promise<void> {
  const task = await taskOfSucceededTurn(deps, session, outcome);
  const message = cleanCommitMessage(outcome.output);
  if (task?.state === 'REVIEWING' && message) await deps.store.update(task.id, { commit_message: message });
}

/**
 * A chat message in the review session while REVIEWING: framed as an adjustment of the commit message (its
 * answer becomes the message), as `POST …/commit-message` frames it, also when it was queued behind a turn.
 */
export async function frameReviewChat(
  deps: TaskDeps,
  session: SessionRecord,
  content: string,
): Promise<string | undefined> {
  if (!session.owner_id) return undefined;
  const task = await deps.store.get(session.owner_id).catch(() => null);
  if (task?.state !== 'REVIEWING') return undefined;
  return commitMessageAdjustPrompt(content, task.commit_message);
}

/**
 * One action from review to merge request: in each changed repository commit everything on the task
 * branch, push it to origin, and open the MR where the remote supports it (GitLab by push options,
 * GitHub by its API, otherwise a compare link). Then DONE with the results. A failure leaves the task in
 * REVIEWING with the results so far; submitting again is safe (nothing new to commit, the push is a no-op).
 */
export async function submitMergeRequest(
  deps: TaskDeps,
  taskId: string,
  body: { title?: string | undefined; description?: string | undefined },
): Promise<Task> {
  // Read before the checks: from them to the claim below nothing may wait.
  const settings = await deps.settings.stored();
  const token = (await deps.settings.secrets()).github_token;
  let task = await deps.store.check(taskId, 'submit_mr');
  // The commit message being written (by itself on entering review, or asked for): wait for it.
  const reviewSessionId = await deps.store.sessionOf(taskId, 'review');
  if (reviewSessionId) deps.runner.assertIdle(reviewSessionId);
  const project = await deps.projects.get(task.project_id);
  const message = task.commit_message ?? task.description.split('\n')[0]?.slice(0, 72) ?? 'Changes';
  const title = body.title ?? task.mr_title ?? message.split('\n')[0] ?? message;
  const description =
    body.description ?? task.mr_description ?? message.split('\n').slice(1).join('\n').trim();
  const providerOf = (repository: string, url: string | null) =>
    project.repositories.find((each) => each.name === repository)?.provider ??
    (url ? detectProvider(url) : 'other');
  const needsToken = task.workspaces.some(
    (workspace) => providerOf(workspace.repository, workspace.origin_url) === 'github',
  );
  if (needsToken && !token) {
    throw new WorkbenchError(
      'GITHUB_TOKEN_NOT_CONFIGURED',
      'A repository is on GitHub: set github_token with PUT /api/settings first.',
      {
        missing: ['github_token'],
      },
    );
  }
  const release = claim(deps, taskId, 'submitting the merge request');
  const results: SubmitResult[] = [];
  try {
    for (const workspace of task.workspaces) {
      const provider = providerOf(workspace.repository, workspace.origin_url);
      const result: SubmitResult = {
        repository: workspace.repository,
        changed: false,
        branch: task.branch,
        commit: null,
        provider,
      };
      results.push(result);
      const changes = await diff(workspace.dir, workspace.base_commit);
      if (changes.files.length === 0) continue;
      result.changed = true;
      const previous = task.results?.find((each) => each.repository === workspace.repository);
      // Who commits and where to push come from the user's repository, not from the workspace the model
      // could edit.
      const source = project.repositories.find((each) => each.name === workspace.repository)?.path;
      result.commit =
        (await commitAll(workspace.dir, message, {
          ...(source ? { identityFrom: source } : {}),
          identity: settings.git_identity,
        })) ??
        previous?.commit ??
        null;
      if (!source) {
        throw new WorkbenchError(
          'REPOSITORY_REMOVED',
          `${workspace.repository} is no longer a repository of the project: cannot tell where to push it.`,
        );
      }
      const url = await sourcePushUrl(source);
      if (provider === 'gitlab') {
        const pushed = await pushBranch(workspace.dir, {
          branch: task.branch,
          remote: 'origin',
          url,
          pushOptions: mergeRequestPushOptions({ target: workspace.base_branch, title, description }),
        });
        result.mr_url = pushed.mergeRequestUrl;
        result.merge_request = pushed.mergeRequestUrl
          ? { url: pushed.mergeRequestUrl }
          : {
              url: null,
              note: `Pushed branch ${task.branch} to ${redactCredentials(url)}; GitLab answered the push without a merge-request link (push options turned off on the server?): open the merge request there.`,
            };
      } else if (provider === 'github') {
        await pushBranch(workspace.dir, { branch: task.branch, remote: 'origin', url });
        // A follow-up pushes to the pull request opened before: GitHub refuses a second one for the branch.
        const opened = openedBefore(task, workspace.repository);
        if (opened) {
          result.mr_url = opened;
          result.merge_request = { url: opened };
          continue;
        }
        const slug = workspace.origin_url ? parseRepoSlug(workspace.origin_url) : null;
        if (!slug) {
          throw new WorkbenchError(
            'UNKNOWN_REMOTE',
            `Cannot read owner/repo from the origin of ${workspace.repository} (${workspace.origin_url}).`,
          );
        }
        const pull = await openGitHubPullRequest({
          apiUrl: settings.github_api_url,
          token: token as string,
          owner: slug.owner,
          repo: slug.repo,
          head: task.branch,
          base: workspace.base_branch,
          title,
          body: description,
        });
        result.mr_url = pull.url;
        result.merge_request = { url: pull.url };
      } else {
        await pushBranch(workspace.dir, { branch: task.branch, remote: 'origin', url });
        result.compare_url = workspace.origin_url
          ? compareLink(workspace.origin_url, workspace.base_branch, task.branch)
          : null;
        result.merge_request = {
          url: null,
          note: `Pushed branch ${task.branch} to ${redactCredentials(url)}; this remote has no merge-request API Keel knows (GitHub or GitLab): open the merge request there${result.compare_url ? ` (compare: ${result.compare_url})` : ''}.`,
        };
      }
    }
  } catch (error) {
    const last = results.at(-1);
    if (last)
      last.error = WorkbenchError.is(error)
        ? error.toJSON()
        : { code: 'SUBMIT_FAILED', message: (error as Error).message };
    await deps.store.update(taskId, { results, error: `submit failed: ${(error as Error).message}` });
    throw error;
  } finally {
    release();
  }
  task = await deps.store.update(taskId, {
    results,
    error: null,
    merge_requests: followedAfterSubmit(task.merge_requests, results),
  });
  const done = await deps.store.move(task.id, 'submitted');
  if (done.merge_requests?.length) deps.mergeRequests.follow(taskId);
  return done;
}

/** The pull request this task opened before for `repository`, if any (a follow-up round reuses it). */
function openedBefore(task: Task, repository: string): string | null {
  return (
    task.merge_requests?.find((each) => each.repository === repository)?.url ??
    task.results?.find((each) => each.repository === repository)?.merge_request?.url ??
    null
  );
}

/** After a push every merge request is followed again (its checks run anew); what was read is kept. */
function followedAfterSubmit(
  before: FollowedMergeRequest[] | null,
  results: SubmitResult[],
): FollowedMergeRequest[] {
  return followable(results).map((each) => {
    const known = before?.find((old) => old.url === each.url);
    return known ? { ...known, following: true } : each;
  });
}

/** The task's review session, created when missing; `forEdit` (logging a hand edit) needs no model. */
export async function reviewSession(deps: TaskDeps, task: Task, forEdit = false): Promise<SessionRecord> {
  return await stageSession(deps, task.id, 'review', async () => {
    const config = await taskRunner(deps, task, await deps.projects.get(task.project_id));
    return await createTaskSession(deps, task, 'review', config, { model: !forEdit });
  });
}

/** The commit message written by itself when the task enters review (retry: POST .../commit-message). */
export async function commitMessageAutomatically(deps: TaskDeps, taskId: string): Promise<void> {
  await startAutomatically(
    deps,
    taskId,
    { what: 'Writing the commit message', retry: `POST /api/tasks/${taskId}/commit-message` },
    () => startCommitMessage(deps, taskId, undefined),
  );
}
