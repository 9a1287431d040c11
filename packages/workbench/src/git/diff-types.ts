import type { RepositoryDiff } from '@keel/protocol/workbench';

export type { FileChange } from '@keel/protocol/workbench';

/** One repository's diff as git gives it; the task and todo diffs add the repository's name. */
export type RepoDiff = Omit<RepositoryDiff, 'repository' | 'base_commit'>;
