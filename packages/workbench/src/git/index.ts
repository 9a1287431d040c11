// Git operations on real repositories through the real git command line: isolated task workspaces,
// snapshots before and after each todo (diff and retry fall out of them), commits, pushes and merge requests.

export { commitAll } from './commit-all.ts';
export type { WorkspaceInfo } from './create-workspace.ts';
export { createWorkspace } from './create-workspace.ts';
export { currentBranch } from './current-branch.ts';
export { defaultMaxPatchBytes, diff } from './diff.ts';
export type { FileChange, RepoDiff } from './diff-types.ts';
export type { FilePatch } from './file-patch.ts';
export { filePatch } from './file-patch.ts';
export { redactCredentials } from './git-error.ts';
export { isGitRepository } from './is-git-repository.ts';
export { listFiles, listTrackedAndUntracked } from './list-files.ts';
export { mergeRequestPushOptions } from './merge-request-push-options.ts';
export type { GitHubPullRequestOptions } from './open-github-pull-request.ts';
export { openGitHubPullRequest } from './open-github-pull-request.ts';
export type { PushResult } from './push-branch.ts';
export { pushBranch } from './push-branch.ts';
export type { RemoteProvider } from './remote-links.ts';
export { compareLink, detectProvider, parseRepoSlug } from './remote-links.ts';
export { remoteUrl, sourcePushUrl } from './remote-url.ts';
export { restoreSnapshot, snapshot, snapshotRefPrefix } from './snapshot.ts';
export { untrackedEntries } from './untracked-entries.ts';
