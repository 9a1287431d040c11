// What the workbench reads about a merge request after it opened it: its state, its checks (GitHub check
// runs, GitLab pipeline jobs) and its comments, in one shape for both providers.

import type { MergeRequestProvider } from '@keel/protocol/workbench';

export type {
  MergeRequestCheck,
  MergeRequestComment,
  MergeRequestProvider,
  MergeRequestStatus,
} from '@keel/protocol/workbench';

export type MergeRequestState = 'open' | 'merged' | 'closed';

export interface MergeRequestTarget {
  provider: MergeRequestProvider;
  /** API root: https://api.github.com, https://HOST/api/v3, https://gitlab.com/api/v4. */
  apiUrl: string;
  /** Sent only in the provider's auth header, only to the origin of `apiUrl`, redacted from every error. */
  token: string;
  /** The merge request's web URL, as opening it answered. */
  url: string;
  /** The clock for `read_at` (tests). */
  now?: () => Date;
}
