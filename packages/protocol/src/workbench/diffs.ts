import { z } from 'zod';
import { todoStatuses } from './names.ts';

/** One changed file. Counts are lines; a binary file counts 0 and has `binary: true`. */
export const fileChange = z.object({
  path: z.string(),
  /** The previous path of a renamed (or copied) file. */
  old_path: z.string().optional(),
  status: z.enum(['added', 'modified', 'deleted', 'renamed']),
  additions: z.number().int(),
  deletions: z.number().int(),
  binary: z.boolean(),
});
export type FileChange = z.infer<typeof fileChange>;

/** One repository's changes. */
export const repositoryDiff = z.object({
  repository: z.string(),
  /** The commit the task's branch started from (the task's diff). */
  base_commit: z.string().optional(),
  /** Every changed file, always complete. */
  files: z.array(fileChange),
  /** git's unified patch, cut at a line boundary (then `truncated`, and a last line saying so). */
  patch: z.string(),
  additions: z.number().int(),
  deletions: z.number().int(),
  truncated: z.boolean().optional(),
});
export type RepositoryDiff = z.infer<typeof repositoryDiff>;

/** `GET /api/tasks/{id}/diff`: every repository, base commit..working tree. */
export const taskDiff = z.object({
  task_id: z.string(),
  repositories: z.array(repositoryDiff),
  additions: z.number().int(),
  deletions: z.number().int(),
});
export type TaskDiff = z.infer<typeof taskDiff>;

/** `GET /api/todos/{id}/diff`: before..after, or before..working tree while it runs (`live`). */
export const todoDiff = z.object({
  todo_id: z.string(),
  status: z.enum(todoStatuses),
  live: z.boolean(),
  repositories: z.array(repositoryDiff),
});
export type TodoDiff = z.infer<typeof todoDiff>;

/** `GET /api/tasks/{id}/diff/file`: one file's patch, base commit..working tree, for a file past the cut. */
export const fileDiff = z.object({
  repository: z.string(),
  path: z.string(),
  patch: z.string(),
  truncated: z.boolean(),
});
export type FileDiff = z.infer<typeof fileDiff>;
