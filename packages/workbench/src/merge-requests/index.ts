// Following a merge request after it was opened: its state, its checks or pipeline and its comments,
// read from GitHub's REST API or GitLab's, in one shape; and the one HTTP client of every forge call.

export type { ForgeAnswer, ForgeRequest } from './forge-request.ts';
export { forgeError, forgeRequest, maxForgeAnswerBytes, redirectNote } from './forge-request.ts';
export { parsePullUrl, readGitHubPullRequest } from './github.ts';
export { parseMergeRequestUrl, readGitLabMergeRequest } from './gitlab.ts';
export { checksState, readMergeRequest } from './read-merge-request.ts';
export type {
  MergeRequestCheck,
  MergeRequestComment,
  MergeRequestProvider,
  MergeRequestState,
  MergeRequestStatus,
  MergeRequestTarget,
} from './types.ts';
