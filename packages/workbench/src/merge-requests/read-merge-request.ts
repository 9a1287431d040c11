import { readGitHubPullRequest } from './github.ts';
import { readGitLabMergeRequest } from './gitlab.ts';
import type { MergeRequestStatus, MergeRequestTarget } from './types.ts';

export { checksState } from './checks-state.ts';

/**
 * Reads a merge request the workbench opened, on whichever provider it lives.
 * @example const status = await readMergeRequest({provider: 'github', apiUrl, token, url: pr.url});
 */
export function readMergeRequest(target: MergeRequestTarget): Promise<MergeRequestStatus> {
  return target.provider === 'github' ? readGitHubPullRequest(target) : readGitLabMergeRequest(target);
}
