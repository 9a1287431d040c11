// What the workbench reads about a merge request after it opened it: its state, its checks (GitHub check
// runs, GitLab pipeline jobs) and its comments, in one shape for both providers.

export type MergeRequestProvider = 'github' | 'gitlab';

export type MergeRequestState = 'open' | 'merged' | 'closed';

export interface MergeRequestCheck {
  name: string;
  status: 'pending' | 'running' | 'passed' | 'failed' | 'skipped' | 'cancelled';
  url: string | null;
  summary: string | null;
}

export interface MergeRequestComment {
  id: string;
  author: string;
  body: string;
  /** The file a review comment is on; null for a conversation comment. */
  path: string | null;
  line: number | null;
  url: string | null;
  created_at: string;
}

export interface MergeRequestStatus {
  provider: MergeRequestProvider;
  url: string;
  number: number;
  state: MergeRequestState;
  head_sha: string | null;
  checks: MergeRequestCheck[];
  checks_state: 'none' | 'pending' | 'passed' | 'failed';
  comments: MergeRequestComment[];
  /** When this was read (ISO 8601). */
  read_at: string;
}

export interface MergeRequestTarget {
  provider: MergeRequestProvider;
  /** API root: https://api.github.com, https://HOST/api/v3, https://gitlab.com/api/v4. */
  apiUrl: string;
  /** Sent only in the provider's auth header, redacted from every error. */
  token: string;
  /** The merge request's web URL, as opening it answered. */
  url: string;
  fetch?: typeof fetch;
  /** The clock for `read_at` (tests). */
  now?: () => Date;
}
