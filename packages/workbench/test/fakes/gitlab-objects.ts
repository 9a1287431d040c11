// Builders for what the GitLab fake answers, with the field names of GitLab's REST docs (merge requests,
// merge request pipelines, pipeline jobs, discussions). GitLab publishes no practical machine-readable
// description of these, so fidelity rests on following the documented examples field for field.
import { createHash } from 'node:crypto';

export interface FakeJob {
  name: string;
  status: string;
  stage?: string;
  allow_failure?: boolean;
  failure_reason?: string;
  /** What `GET projects/:id/jobs/:job_id/trace` answers (text/plain, ANSI codes and all); empty unless set. */
  trace?: string;
}

export interface FakePipeline {
  id: number;
  sha: string;
  status: string;
  jobs: (FakeJob & { id: number })[];
  created_at: string;
}

export interface FakeNote {
  id: number;
  discussion: string;
  author: string;
  body: string;
  path: string | null;
  line: number | null;
  system: boolean;
  created_at: string;
}

export interface FakeMergeRequest {
  id: number;
  iid: number;
  project_id: number;
  project: string;
  title: string;
  source_branch: string;
  target_branch: string;
  state: 'opened' | 'closed' | 'merged' | 'locked';
  sha: string;
  base_sha: string;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
  closed_at: string | null;
  pipelines: FakePipeline[];
  notes: FakeNote[];
}

export function fakeSha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

export function gitlabUser(web: string, username: string): Record<string, unknown> {
  const id = Number.parseInt(fakeSha(`user:${username}`).slice(0, 6), 16);
  return {
    id,
    username,
    name: username.charAt(0).toUpperCase() + username.slice(1),
    state: 'active',
    locked: false,
    avatar_url: `${web}/uploads/-/system/user/avatar/${id}/avatar.png`,
    web_url: `${web}/${username}`,
  };
}

function webUrl(web: string, mr: FakeMergeRequest): string {
  return `${web}/${mr.project}/-/merge_requests/${mr.iid}`;
}

export function pipeline(web: string, mr: FakeMergeRequest, item: FakePipeline): Record<string, unknown> {
  return {
    id: item.id,
    iid: mr.pipelines.indexOf(item) + 1,
    project_id: mr.project_id,
    sha: item.sha,
    ref: `refs/merge-requests/${mr.iid}/head`,
    status: item.status,
    source: 'merge_request_event',
    created_at: item.created_at,
    updated_at: item.created_at,
    web_url: `${web}/${mr.project}/-/pipelines/${item.id}`,
  };
}

export function mergeRequest(web: string, mr: FakeMergeRequest): Record<string, unknown> {
  const author = gitlabUser(web, 'keel');
  const head = [...mr.pipelines].reverse().find((item) => item.sha === mr.sha);
  const merged = mr.state === 'merged';
  const reference = `!${mr.iid}`;
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.project_id,
    title: mr.title,
    description: '',
    state: mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    merged_by: merged ? author : null,
    merge_user: merged ? author : null,
    merged_at: mr.merged_at,
    closed_by: mr.state === 'closed' ? author : null,
    closed_at: mr.closed_at,
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    user_notes_count: mr.notes.filter((note) => !note.system).length,
    upvotes: 0,
    downvotes: 0,
    author,
    assignees: [],
    assignee: null,
    reviewers: [],
    source_project_id: mr.project_id,
    target_project_id: mr.project_id,
    labels: [],
    draft: false,
    work_in_progress: false,
    milestone: null,
    merge_when_pipeline_succeeds: false,
    merge_status: 'can_be_merged',
    detailed_merge_status: mr.state === 'opened' ? 'mergeable' : 'not_open',
    sha: mr.sha,
    merge_commit_sha: merged ? fakeSha(`merge:${mr.sha}`) : null,
    squash_commit_sha: null,
    discussion_locked: null,
    should_remove_source_branch: null,
    force_remove_source_branch: true,
    reference,
    references: { short: reference, relative: reference, full: `${mr.project}${reference}` },
    web_url: webUrl(web, mr),
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    squash: false,
    task_completion_status: { count: 0, completed_count: 0 },
    has_conflicts: false,
    blocking_discussions_resolved: true,
    subscribed: true,
    changes_count: '1',
    latest_build_started_at: head?.created_at ?? null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: head ? pipeline(web, mr, head) : null,
    head_pipeline: head ? { ...pipeline(web, mr, head), user: author, coverage: null } : null,
    diff_refs: { base_sha: mr.base_sha, head_sha: mr.sha, start_sha: mr.base_sha },
    merge_error: null,
    first_contribution: false,
    user: { can_merge: true },
  };
}

export function job(
  web: string,
  mr: FakeMergeRequest,
  item: FakePipeline,
  entry: FakePipeline['jobs'][number],
) {
  const finished = ['success', 'failed', 'canceled', 'skipped'].includes(entry.status);
  const started = finished || entry.status === 'running';
  return {
    id: entry.id,
    status: entry.status,
    stage: entry.stage ?? 'test',
    name: entry.name,
    ref: `refs/merge-requests/${mr.iid}/head`,
    tag: false,
    coverage: null,
    allow_failure: entry.allow_failure ?? false,
    created_at: item.created_at,
    started_at: started ? item.created_at : null,
    finished_at: finished ? item.created_at : null,
    erased_at: null,
    duration: finished ? 42.5 : null,
    queued_duration: started ? 1.2 : null,
    user: gitlabUser(web, 'keel'),
    commit: {
      id: item.sha,
      short_id: item.sha.slice(0, 8),
      title: mr.title,
      created_at: item.created_at,
      parent_ids: [mr.base_sha],
      message: mr.title,
      author_name: 'Keel',
      author_email: 'keel@example.com',
      authored_date: item.created_at,
      committer_name: 'Keel',
      committer_email: 'keel@example.com',
      committed_date: item.created_at,
    },
    pipeline: {
      id: item.id,
      project_id: mr.project_id,
      ref: `refs/merge-requests/${mr.iid}/head`,
      sha: item.sha,
      status: item.status,
    },
    web_url: `${web}/${mr.project}/-/jobs/${entry.id}`,
    project: { ci_job_token_scope_enabled: false },
    artifacts: [],
    runner: null,
    artifacts_expire_at: null,
    archived: false,
    tag_list: [],
    ...(entry.status === 'failed' ? { failure_reason: entry.failure_reason ?? 'script_failure' } : {}),
  };
}

/** One discussion per thread; a note on a file is a DiffNote with the documented `position`. */
export function discussions(web: string, mr: FakeMergeRequest): Record<string, unknown>[] {
  const threads = new Map<string, FakeNote[]>();
  for (const note of mr.notes) threads.set(note.discussion, [...(threads.get(note.discussion) ?? []), note]);
  return [...threads].map(([id, notes]) => ({
    id,
    individual_note: notes.length === 1 && notes[0]?.path === null,
    notes: notes.map((note) => ({
      id: note.id,
      type: note.path === null ? null : 'DiffNote',
      body: note.body,
      attachment: null,
      author: gitlabUser(web, note.author),
      created_at: note.created_at,
      updated_at: note.created_at,
      system: note.system,
      noteable_id: mr.id,
      noteable_type: 'MergeRequest',
      project_id: mr.project_id,
      noteable_iid: mr.iid,
      resolvable: note.path !== null,
      ...(note.path === null ? {} : { resolved: false, resolved_by: null, resolved_at: null }),
      confidential: false,
      internal: false,
      imported: false,
      imported_from: 'none',
      ...(note.path === null
        ? {}
        : {
            position: {
              base_sha: mr.base_sha,
              start_sha: mr.base_sha,
              head_sha: mr.sha,
              old_path: note.path,
              new_path: note.path,
              position_type: 'text',
              old_line: null,
              new_line: note.line,
              line_range: null,
            },
          }),
    })),
  }));
}
