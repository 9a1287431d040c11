// Builders for the objects the GitHub fake answers: every field GitHub's OpenAPI description requires,
// with plausible values, so responses validate (github-openapi.ts) and read like the real API's.
import { createHash } from 'node:crypto';

export interface Place {
  /** The fake's web root (html_url), e.g. http://127.0.0.1:PORT. */
  web: string;
  /** The fake's API root (url), e.g. http://127.0.0.1:PORT/api/v3. */
  api: string;
}

export interface FakePull {
  owner: string;
  repo: string;
  number: number;
  id: number;
  title: string;
  body: string | null;
  /** `owner:branch` as sent, or a plain branch of the base repository. */
  head: string;
  base: string;
  head_sha: string;
  base_sha: string;
  state: 'open' | 'closed';
  merged_at: string | null;
  merge_commit_sha: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  author: string;
}

export interface FakeCheckRun {
  name: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion?:
    | 'success'
    | 'failure'
    | 'neutral'
    | 'cancelled'
    | 'skipped'
    | 'timed_out'
    | 'action_required'
    | null;
  title?: string | null;
  summary?: string | null;
  /** The output's details (markdown), e.g. a test runner's failures. */
  text?: string | null;
  /** Answered by `GET /repos/{owner}/{repo}/check-runs/{id}/annotations`, counted in the output. */
  annotations?: FakeAnnotation[];
}

export interface FakeAnnotation {
  path: string;
  start_line: number;
  end_line?: number;
  annotation_level?: 'notice' | 'warning' | 'failure';
  title?: string | null;
  message: string;
  raw_details?: string | null;
}

export interface FakeComment {
  id: number;
  kind: 'review' | 'issue';
  author: string;
  body: string;
  path: string | null;
  line: number | null;
  commit_id: string;
  created_at: string;
}

/** A stable 40-hex sha for a name, like a commit GitHub would report. */
export function fakeSha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

function numericId(seed: string): number {
  return Number.parseInt(fakeSha(seed).slice(0, 8), 16);
}

function nodeId(prefix: string, id: number): string {
  return `${prefix}_${Buffer.from(String(id)).toString('base64url')}`;
}

export function user(place: Place, login: string): Record<string, unknown> {
  const id = numericId(`user:${login}`);
  const url = `${place.api}/users/${login}`;
  return {
    login,
    id,
    node_id: nodeId('U', id),
    avatar_url: `${place.web}/avatars/u/${id}`,
    gravatar_id: '',
    url,
    html_url: `${place.web}/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: 'User',
    site_admin: false,
  };
}

export function repository(place: Place, owner: string, name: string): Record<string, unknown> {
  const id = numericId(`repo:${owner}/${name}`);
  const url = `${place.api}/repos/${owner}/${name}`;
  const html = `${place.web}/${owner}/${name}`;
  const host = new URL(place.web).host;
  return {
    id,
    node_id: nodeId('R', id),
    name,
    full_name: `${owner}/${name}`,
    owner: user(place, owner),
    private: false,
    html_url: html,
    description: null,
    fork: false,
    url,
    archive_url: `${url}/{archive_format}{/ref}`,
    assignees_url: `${url}/assignees{/user}`,
    blobs_url: `${url}/git/blobs{/sha}`,
    branches_url: `${url}/branches{/branch}`,
    collaborators_url: `${url}/collaborators{/collaborator}`,
    comments_url: `${url}/comments{/number}`,
    commits_url: `${url}/commits{/sha}`,
    compare_url: `${url}/compare/{base}...{head}`,
    contents_url: `${url}/contents/{+path}`,
    contributors_url: `${url}/contributors`,
    deployments_url: `${url}/deployments`,
    downloads_url: `${url}/downloads`,
    events_url: `${url}/events`,
    forks_url: `${url}/forks`,
    git_commits_url: `${url}/git/commits{/sha}`,
    git_refs_url: `${url}/git/refs{/sha}`,
    git_tags_url: `${url}/git/tags{/sha}`,
    git_url: `git://${host}/${owner}/${name}.git`,
    issue_comment_url: `${url}/issues/comments{/number}`,
    issue_events_url: `${url}/issues/events{/number}`,
    issues_url: `${url}/issues{/number}`,
    keys_url: `${url}/keys{/key_id}`,
    labels_url: `${url}/labels{/name}`,
    languages_url: `${url}/languages`,
    merges_url: `${url}/merges`,
    milestones_url: `${url}/milestones{/number}`,
    notifications_url: `${url}/notifications{?since,all,participating}`,
    pulls_url: `${url}/pulls{/number}`,
    releases_url: `${url}/releases{/id}`,
    ssh_url: `git@${host}:${owner}/${name}.git`,
    stargazers_url: `${url}/stargazers`,
    statuses_url: `${url}/statuses/{sha}`,
    subscribers_url: `${url}/subscribers`,
    subscription_url: `${url}/subscription`,
    tags_url: `${url}/tags`,
    teams_url: `${url}/teams`,
    trees_url: `${url}/git/trees{/sha}`,
    clone_url: `${html}.git`,
    mirror_url: null,
    hooks_url: `${url}/hooks`,
    svn_url: html,
    homepage: null,
    language: 'TypeScript',
    forks_count: 0,
    forks: 0,
    stargazers_count: 0,
    watchers_count: 0,
    watchers: 0,
    size: 120,
    default_branch: 'main',
    open_issues_count: 0,
    open_issues: 0,
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    archived: false,
    disabled: false,
    visibility: 'public',
    license: null,
    pushed_at: '2026-01-01T00:00:00Z',
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  };
}

function branchEnd(place: Place, pull: FakePull, spec: string, sha: string): Record<string, unknown> {
  const [owner, ref] = spec.includes(':') ? (spec.split(':', 2) as [string, string]) : [pull.owner, spec];
  return {
    label: `${owner}:${ref}`,
    ref,
    sha,
    user: user(place, owner),
    repo: repository(place, owner, pull.repo),
  };
}

export function pullRequest(
  place: Place,
  pull: FakePull,
  counts: { comments: number; review_comments: number },
): Record<string, unknown> {
  const url = `${place.api}/repos/${pull.owner}/${pull.repo}/pulls/${pull.number}`;
  const html = `${place.web}/${pull.owner}/${pull.repo}/pull/${pull.number}`;
  const issue = `${place.api}/repos/${pull.owner}/${pull.repo}/issues/${pull.number}`;
  const statuses = `${place.api}/repos/${pull.owner}/${pull.repo}/statuses/${pull.head_sha}`;
  const link = (href: string) => ({ href });
  const merged = pull.merged_at !== null;
  return {
    url,
    id: pull.id,
    node_id: nodeId('PR', pull.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issue,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${place.api}/repos/${pull.owner}/${pull.repo}/pulls/comments{/number}`,
    comments_url: `${issue}/comments`,
    statuses_url: statuses,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    user: user(place, pull.author),
    body: pull.body,
    labels: [],
    milestone: null,
    active_lock_reason: null,
    created_at: pull.created_at,
    updated_at: pull.updated_at,
    closed_at: pull.closed_at,
    merged_at: pull.merged_at,
    merge_commit_sha: pull.merge_commit_sha,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: branchEnd(place, pull, pull.head, pull.head_sha),
    base: branchEnd(place, pull, pull.base, pull.base_sha),
    _links: {
      self: link(url),
      html: link(html),
      issue: link(issue),
      comments: link(`${issue}/comments`),
      review_comments: link(`${url}/comments`),
      review_comment: link(`${place.api}/repos/${pull.owner}/${pull.repo}/pulls/comments{/number}`),
      commits: link(`${url}/commits`),
      statuses: link(statuses),
    },
    author_association: 'OWNER',
    auto_merge: null,
    draft: false,
    merged,
    mergeable: pull.state === 'open' ? true : null,
    rebaseable: pull.state === 'open' ? true : null,
    mergeable_state: pull.state === 'open' ? 'clean' : 'unknown',
    merged_by: merged ? user(place, pull.author) : null,
    comments: counts.comments,
    review_comments: counts.review_comments,
    maintainer_can_modify: false,
    commits: 1,
    additions: 10,
    deletions: 2,
    changed_files: 1,
  };
}

/** The id GitHub gives the check run `name` of a commit (stable, so a test can find it again). */
export function checkRunId(owner: string, repo: string, sha: string, name: string): number {
  return numericId(`check:${owner}/${repo}@${sha}#${name}`);
}

export function checkRun(
  place: Place,
  owner: string,
  repo: string,
  sha: string,
  run: FakeCheckRun,
  now: string,
): Record<string, unknown> {
  const id = checkRunId(owner, repo, sha, run.name);
  const done = run.status === 'completed';
  return {
    id,
    head_sha: sha,
    node_id: nodeId('CR', id),
    external_id: String(id),
    url: `${place.api}/repos/${owner}/${repo}/check-runs/${id}`,
    html_url: `${place.web}/${owner}/${repo}/runs/${id}`,
    details_url: `${place.web}/${owner}/${repo}/actions/runs/${id}/job/${id}`,
    status: run.status,
    conclusion: done ? (run.conclusion ?? 'success') : null,
    started_at: run.status === 'queued' ? null : now,
    completed_at: done ? now : null,
    output: {
      title: run.title ?? null,
      summary: run.summary ?? null,
      text: run.text ?? null,
      annotations_count: run.annotations?.length ?? 0,
      annotations_url: `${place.api}/repos/${owner}/${repo}/check-runs/${id}/annotations`,
    },
    name: run.name,
    check_suite: { id: numericId(`suite:${owner}/${repo}@${sha}`) },
    app: null,
    pull_requests: [],
  };
}

export function checkAnnotation(
  place: Place,
  owner: string,
  repo: string,
  sha: string,
  annotation: FakeAnnotation,
): Record<string, unknown> {
  return {
    path: annotation.path,
    blob_href: `${place.web}/${owner}/${repo}/blob/${sha}/${annotation.path}`,
    start_line: annotation.start_line,
    end_line: annotation.end_line ?? annotation.start_line,
    start_column: null,
    end_column: null,
    annotation_level: annotation.annotation_level ?? 'failure',
    title: annotation.title ?? null,
    message: annotation.message,
    raw_details: annotation.raw_details ?? null,
  };
}

export function reviewComment(place: Place, pull: FakePull, comment: FakeComment): Record<string, unknown> {
  const api = `${place.api}/repos/${pull.owner}/${pull.repo}`;
  const html = `${place.web}/${pull.owner}/${pull.repo}/pull/${pull.number}#discussion_r${comment.id}`;
  const lined = comment.line !== null;
  return {
    url: `${api}/pulls/comments/${comment.id}`,
    pull_request_review_id: comment.id + 1_000_000,
    id: comment.id,
    node_id: nodeId('PRRC', comment.id),
    diff_hunk: '@@ -1,3 +1,4 @@',
    path: comment.path ?? '',
    // GitHub sends `line: null` for file-level comments, but the description types it as an integer:
    // leave it out instead, which both GitHub's shape and the description allow.
    ...(lined ? { line: comment.line, original_line: comment.line, side: 'RIGHT' } : {}),
    subject_type: lined ? 'line' : 'file',
    commit_id: comment.commit_id,
    original_commit_id: comment.commit_id,
    user: user(place, comment.author),
    body: comment.body,
    created_at: comment.created_at,
    updated_at: comment.created_at,
    html_url: html,
    pull_request_url: `${api}/pulls/${pull.number}`,
    author_association: 'MEMBER',
    _links: {
      self: { href: `${api}/pulls/comments/${comment.id}` },
      html: { href: html },
      pull_request: { href: `${api}/pulls/${pull.number}` },
    },
  };
}

export function issueComment(place: Place, pull: FakePull, comment: FakeComment): Record<string, unknown> {
  const api = `${place.api}/repos/${pull.owner}/${pull.repo}`;
  return {
    id: comment.id,
    node_id: nodeId('IC', comment.id),
    url: `${api}/issues/comments/${comment.id}`,
    html_url: `${place.web}/${pull.owner}/${pull.repo}/pull/${pull.number}#issuecomment-${comment.id}`,
    body: comment.body,
    user: user(place, comment.author),
    created_at: comment.created_at,
    updated_at: comment.created_at,
    issue_url: `${api}/issues/${pull.number}`,
    author_association: 'MEMBER',
  };
}
