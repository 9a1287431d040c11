import { z } from 'zod';
import { WorkbenchError } from '../errors.ts';
import { readCheckLogs, traceTail } from './check-log.ts';
import { checksState } from './checks-state.ts';
import { requestJson, requestText } from './request-json.ts';
import type {
  MergeRequestCheck,
  MergeRequestComment,
  MergeRequestStatus,
  MergeRequestTarget,
} from './types.ts';

// Only the fields we read; GitLab sends many more.
const mergeRequestSchema = z.object({
  iid: z.number(),
  project_id: z.number(),
  state: z.string(),
  sha: z.string().nullish(),
  web_url: z.string(),
});
const pipelinesSchema = z.array(
  z.object({ id: z.number(), sha: z.string().nullish(), status: z.string(), web_url: z.string().nullish() }),
);
const jobsSchema = z.array(
  z.object({
    id: z.number(),
    name: z.string(),
    status: z.string(),
    web_url: z.string().nullish(),
    allow_failure: z.boolean().nullish(),
    failure_reason: z.string().nullish(),
  }),
);
const discussionsSchema = z.array(
  z.object({
    notes: z.array(
      z.object({
        id: z.number(),
        body: z.string().nullish(),
        system: z.boolean().nullish(),
        created_at: z.string(),
        author: z.object({ username: z.string() }).nullish(),
        position: z.object({ new_path: z.string().nullish(), new_line: z.number().nullish() }).nullish(),
      }),
    ),
  }),
);

/**
 * Reads a GitLab merge request from its web URL (`https://HOST/GROUP/SUB/PROJECT/-/merge_requests/N`):
 * its state, the jobs of its newest pipeline as checks (a failed one with the end of its trace as its
 * log), and every human note of its discussions.
 * Lists are read as one page of 100 (`per_page=100`): enough for the merge requests the workbench opens.
 * @example await readGitLabMergeRequest({provider: 'gitlab', apiUrl: 'https://gitlab.com/api/v4', token, url})
 */
export async function readGitLabMergeRequest(target: MergeRequestTarget): Promise<MergeRequestStatus> {
  const { project, iid } = parseMergeRequestUrl(target.url, target.apiUrl);
  const api = target.apiUrl.replace(/\/+$/, '');
  const request = {
    provider: 'gitlab' as const,
    token: target.token,
    subject: `merge request ${project}!${iid}`,
  };
  const mr = await requestJson(
    `${api}/projects/${encodeURIComponent(project)}/merge_requests/${iid}`,
    request,
    mergeRequestSchema,
  );
  const base = `${api}/projects/${mr.project_id}`;
  const [pipelines, discussions] = await Promise.all([
    requestJson(`${base}/merge_requests/${iid}/pipelines?per_page=100`, request, pipelinesSchema),
    requestJson(`${base}/merge_requests/${iid}/discussions?per_page=100`, request, discussionsSchema),
  ]);
  // The newest pipeline of the head commit: an older commit's result says nothing about this one. A
  // GitLab that omits `sha` in this list gets the newest pipeline overall.
  const newestFirst = [...pipelines].sort((a, b) => b.id - a.id);
  const pipeline = newestFirst.some((item) => item.sha)
    ? newestFirst.find((item) => item.sha === mr.sha)
    : newestFirst[0];
  let checks: MergeRequestCheck[] = [];
  if (pipeline) {
    const jobs = await requestJson(`${base}/pipelines/${pipeline.id}/jobs?per_page=100`, request, jobsSchema);
    const logs = await readCheckLogs(
      jobs,
      (job) => job.status === 'failed' && !job.allow_failure,
      async (job) => traceTail(await requestText(`${base}/jobs/${job.id}/trace`, request)),
    );
    checks = jobs.map((job, index) => ({
      name: job.name,
      // A job allowed to fail does not fail the pipeline: it reads as skipped, saying why.
      status: job.status === 'failed' && job.allow_failure ? 'skipped' : jobStatus(job.status),
      url: job.web_url ?? null,
      summary: job.status === 'failed' ? (job.failure_reason ?? null) : null,
      ...(logs[index] === undefined ? {} : { log: logs[index] }),
    }));
    if (checks.length === 0) {
      // `manual` on a pipeline means a blocking manual job waits for someone: not done yet.
      const status = pipeline.status === 'manual' ? 'pending' : jobStatus(pipeline.status);
      checks = [{ name: `pipeline #${pipeline.id}`, status, url: pipeline.web_url ?? null, summary: null }];
    }
  }
  const comments = discussions
    .flatMap((discussion) => discussion.notes)
    .filter((note) => note.system !== true)
    .map(
      (note): MergeRequestComment => ({
        id: String(note.id),
        author: note.author?.username ?? 'ghost',
        body: note.body ?? '',
        path: note.position?.new_path ?? null,
        line: note.position?.new_line ?? null,
        // The API gives notes no URL; this is the anchor GitLab's page uses.
        url: `${mr.web_url}#note_${note.id}`,
        created_at: note.created_at,
      }),
    )
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  return {
    provider: 'gitlab',
    url: mr.web_url,
    number: mr.iid,
    state: mr.state === 'merged' ? 'merged' : mr.state === 'closed' ? 'closed' : 'open',
    head_sha: mr.sha ?? null,
    checks,
    checks_state: checksState(checks),
    comments,
    read_at: (target.now?.() ?? new Date()).toISOString(),
  };
}

/**
 * The project path is everything before `/-/merge_requests`; a GitLab under a relative root
 * (`https://HOST/gitlab/…`, API `https://HOST/gitlab/api/v4`) has that root taken off too.
 */
export function parseMergeRequestUrl(url: string, apiUrl: string): { project: string; iid: number } {
  let path = '';
  let root = '';
  try {
    path = decodeURIComponent(new URL(url).pathname);
    root = new URL(apiUrl).pathname.replace(/\/api\/v4\/*$/, '').replace(/\/+$/, '');
  } catch {}
  const match = /^\/(.+?)\/-\/merge_requests\/(\d+)(?:\/.*)?$/.exec(path);
  let project = match?.[1] ?? '';
  if (root && project.startsWith(`${root.slice(1)}/`)) project = project.slice(root.length);
  const iid = Number(match?.[2]);
  if (!project || !Number.isInteger(iid) || iid <= 0) {
    throw new WorkbenchError(
      'MERGE_REQUEST_FOLLOW_FAILED',
      `not a GitLab merge request URL (expected …/GROUP/PROJECT/-/merge_requests/N): ${url}`,
      { provider: 'gitlab' },
    );
  }
  return { project, iid };
}

// GitLab's pipeline and job statuses; `manual` jobs wait for a person and do not block by default.
function jobStatus(status: string): MergeRequestCheck['status'] {
  switch (status) {
    case 'success':
      return 'passed';
    case 'failed':
      return 'failed';
    case 'canceled':
    case 'canceling':
      return 'cancelled';
    case 'skipped':
    case 'manual':
      return 'skipped';
    case 'running':
      return 'running';
    default:
      // created, waiting_for_resource, preparing, pending, scheduled
      return 'pending';
  }
}
