// Diffs as the workbench answers them: per todo (`GET /api/todos/{id}/diff`) and per task (review).

import type { TodoStatus } from './types.ts';
export interface FileChange {
  path: string;
  old_path?: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  additions: number;
  deletions: number;
  binary: boolean;
}

export interface RepositoryDiff {
  repository: string;
  base_commit?: string;
  /** Every changed file, always complete. */
  files: FileChange[];
  /** The unified git patch, cut at 1 MiB (then `truncated`, and a last line saying so). */
  patch: string;
  additions: number;
  deletions: number;
  truncated?: boolean;
}

export interface TaskDiff {
  task_id: string;
  repositories: RepositoryDiff[];
  additions: number;
  deletions: number;
}

export interface TodoDiff {
  todo_id: string;
  status: TodoStatus;
  live: boolean;
  repositories: RepositoryDiff[];
}
