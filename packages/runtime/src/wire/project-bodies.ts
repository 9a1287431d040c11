import { z } from 'zod';

// What creating and updating web projects and tasks take (spec section 2, "Web project and task"): the SDK
// (`runtime.projects`) and keel-web validate with these same schemas, and @keel/protocol re-exports them.

/** Text without NUL characters: file systems refuse them in paths, PostgreSQL in any text. */
const text = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !value.includes('\0'), 'must not contain NUL characters');

const name = text(200).refine((value) => value.trim() !== '', 'must not be empty');
const path = text(4096).refine((value) => value !== '', 'must not be empty');
const codePaths = z.array(path).max(100, 'must list at most 100 paths');

export const newProjectSchema = z.strictObject({
  name: name.describe('what the project is called'),
  description: text(10_000).default('').describe('free text'),
  workdir: path.describe('the project directory; it must exist'),
  code_paths: codePaths
    .default([])
    .describe('further code directories its chats may use (relative ones from workdir); each must exist'),
});

export const projectUpdateSchema = z.strictObject({
  name: name.optional(),
  description: text(10_000).optional(),
  workdir: path.optional(),
  code_paths: codePaths.optional(),
});

export const newTaskSchema = z.strictObject({
  name: name.describe('what the task is called'),
  branch_name: text(255)
    .refine((value) => value !== '', 'must not be empty')
    .describe('the git branch to create or switch to (git check-ref-format --branch)'),
});

export const taskUpdateSchema = z.strictObject({
  name: name.optional(),
  branch_name: text(255)
    .refine((value) => value !== '', 'must not be empty')
    .optional(),
});

export type NewProjectInput = z.input<typeof newProjectSchema>;
export type ProjectUpdateInput = z.input<typeof projectUpdateSchema>;
export type NewTaskInput = z.input<typeof newTaskSchema>;
export type TaskUpdateInput = z.input<typeof taskUpdateSchema>;
