import { z } from 'zod';
import { WorkbenchError } from '../errors.ts';
import { keepStart, readCheckLogs } from './check-log.ts';
import { checksState } from './checks-state.ts';
import { type ProviderRequest, requestJson } from './request-json.ts';
import type {
  MergeRequestCheck,
  MergeRequestComment,
  MergeRequestStatus,
  MergeRequestTarget,
} from './types.ts';

// Only the fields we read; GitHub sends many more.
const pullSchema = z.object({
  number: z.number(),
  html_url: z.string(),
  state: z.enum(['open', 'closed']),
  merged: z.boolean().nullish(),
  merged_at: z.string().nullish(),
  head: z.object({ sha: z.string() }),
});
const checkRunsSchema = z.object({
  check_runs: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      status: z.string(),
      conclusion: z.string().nullish(),
      html_url: z.string().nullish(),
      details_url: z.string().nullish(),
      output: z
        .object({
          title: z.string().nullish(),
          summary: z.string().nullish(),
          text: z.string().nullish(),
          annotations_count: z.number().nullish(),
        })
        .nullish(),
    }),
  ),
});
type CheckRun = z.infer<typeof checkRunsSchema>['check_runs'][number];
const annotationsSchema = z.array(
  z.object({
    path: z.string().nullish(),
    start_line: z.number().nullish(),
    annotation_level: z.string().nullish(),
    title: z.string().nullish(),
    message: z.string().nullish(),
  }),
);
const commentsSchema = z.array(
  z.object({
    id: z.number(),
    body: z.string().nullish(),
    user: z.object({ login: z.string() }).nullish(),
    html_url: z.string().nullish(),
    created_at: z.string(),
    path: z.string().nullish(),
    line: z.number().nullish(),
    original_line: z.number().nullish(),
  }),
);

/**
 * Reads a GitHub pull request from its web URL (`https://github.com/OWNER/REPO/pull/N`, or a GHES one):
 * its state, the check runs of its head commit (a failed one with its log: its output and annotations)
 * and both kinds of comments.
 * Lists are read as one page of 100 (`per_page=100`): enough for the merge requests the workbench opens;
 * a longer list is cut, not failed.
 * @example await readGitHubPullRequest({provider: 'github', apiUrl: 'https://api.github.com', token, url})
 */
export async function readGitHubPullRequest(target: MergeRequestTarget): Promise<MergeRequestStatus> {
  const { owner, repo, number } = parsePullUrl(target.url);
  const repoUrl = `${target.apiUrl.replace(/\/+$/, '')}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  const request = {
    provider: 'github' as const,
    token: target.token,
    subject: `pull request ${owner}/${repo}#${number}`,
  };
  const pull = await requestJson(`${repoUrl}/pulls/${number}`, request, pullSchema);
  const sha = pull.head.sha;
  const [runs, reviewComments, issueComments] = await Promise.all([
    requestJson(
      `${repoUrl}/commits/${encodeURIComponent(sha)}/check-runs?per_page=100`,
      request,
      checkRunsSchema,
    ),
    requestJson(`${repoUrl}/pulls/${number}/comments?per_page=100`, request, commentsSchema),
    requestJson(`${repoUrl}/issues/${number}/comments?per_page=100`, request, commentsSchema),
  ]);
  const failed = (run: CheckRun) => checkStatus(run.status, run.conclusion ?? null) === 'failed';
  const logs = await readCheckLogs(runs.check_runs, failed, (run) => checkRunLog(repoUrl, request, run));
  const checks = runs.check_runs.map(
    (run, index): MergeRequestCheck => ({
      name: run.name,
      status: checkStatus(run.status, run.conclusion ?? null),
      url: run.html_url ?? run.details_url ?? null,
      summary: run.output?.title ?? run.output?.summary ?? null,
      ...(logs[index] === undefined ? {} : { log: logs[index] }),
    }),
  );
  const comments = [
    ...reviewComments.map((comment) => toComment('review', comment)),
    ...issueComments.map((comment) => toComment('issue', comment)),
  ].sort((a, b) => a.created_at.localeCompare(b.created_at));
  return {
    provider: 'github',
    url: pull.html_url,
    number: pull.number,
    state: pull.merged || pull.merged_at ? 'merged' : pull.state,
    head_sha: sha,
    checks,
    checks_state: checksState(checks),
    comments,
    read_at: (target.now?.() ?? new Date()).toISOString(),
  };
}

/**
 * A failed check run's log: its annotations (where and what failed) first, then its output's title,
 * summary and text, cut at the end to `maxCheckLogChars`. Annotations are asked for only when it has some;
 * when they cannot be read, the output alone is the log.
 */
async function checkRunLog(repoUrl: string, request: ProviderRequest, run: CheckRun): Promise<string> {
  const annotations =
    (run.output?.annotations_count ?? 1) > 0
      ? // Annotations that cannot be read leave the output, which is already in hand.
        await requestJson(
          `${repoUrl}/check-runs/${run.id}/annotations?per_page=50`,
          request,
          annotationsSchema,
        ).catch(() => [])
      : [];
  const lines = annotations.map((item) => {
    const where = [item.path, item.start_line].filter((part) => part != null && part !== '').join(':');
    const title = item.title ? `${item.title}: ` : '';
    return `${where ? `${where}: ` : ''}${item.annotation_level ?? 'notice'}: ${title}${item.message ?? ''}`;
  });
  const output = [run.output?.title, run.output?.summary, run.output?.text].filter((part) => part?.trim());
  return keepStart([lines.join('\n'), ...output].filter(Boolean).join('\n\n'));
}

/** Owner, repository and number from the path's last segments `…/OWNER/REPO/pull/N` (GHES may add a prefix). */
export function parsePullUrl(url: string): { owner: string; repo: string; number: number } {
  let segments: string[] = [];
  try {
    segments = new URL(url).pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {}
  const at = segments.lastIndexOf('pull');
  const [owner, repo, number] = [segments[at - 2], segments[at - 1], Number(segments[at + 1])];
  if (at < 2 || !owner || !repo || !Number.isInteger(number) || number <= 0) {
    throw new WorkbenchError(
      'MERGE_REQUEST_FOLLOW_FAILED',
      `not a GitHub pull request URL (expected …/OWNER/REPO/pull/N): ${url}`,
      { provider: 'github' },
    );
  }
  return { owner, repo, number };
}

// Neutral counts as passed (GitHub's branch protection treats it so); action_required and timed_out
// block the merge like a failure; `stale` is about to be re-run.
function checkStatus(status: string, conclusion: string | null): MergeRequestCheck['status'] {
  if (status === 'in_progress') return 'running';
  if (status !== 'completed') return 'pending';
  switch (conclusion) {
    case 'success':
    case 'neutral':
      return 'passed';
    case 'skipped':
      return 'skipped';
    case 'cancelled':
      return 'cancelled';
    case 'failure':
    case 'timed_out':
    case 'action_required':
      return 'failed';
    default:
      return 'pending';
  }
}

// Review and conversation comments number separately on GitHub: the kind keeps ids unique.
function toComment(
  kind: 'review' | 'issue',
  comment: z.infer<typeof commentsSchema>[number],
): MergeRequestComment {
  return {
    id: `${kind}:${comment.id}`,
    author: comment.user?.login ?? 'ghost',
    body: comment.body ?? '',
    path: kind === 'review' ? (comment.path ?? null) : null,
    // An outdated review comment has no `line` any more; its `original_line` still says where it was.
    line: kind === 'review' ? (comment.line ?? comment.original_line ?? null) : null,
    url: comment.html_url ?? null,
    created_at: comment.created_at,
  };
}
