import { z } from 'zod';
import { InvalidParamsError } from '../errors/index.ts';

// What creating and updating projects and tasks take (spec section 2, "Web project and task"). The web
// server validates request bodies with these same schemas, so HTTP and SDK callers get the same rules.

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

/** One bad field: where it is (`name`, `code_paths.1`) and what is wrong with it. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** An INVALID_PARAMS error naming the bad fields in `details.issues` (the web API answers it with 422). */
export function invalidFields(issues: FieldIssue[]): InvalidParamsError {
  const first = issues[0];
  const message = first ? `${first.field}: ${first.message}` : 'Invalid input.';
  return new InvalidParamsError(message, { issues });
}

/** Validates `value` with `schema`, or throws invalidFields listing every problem. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  throw invalidFields(
    parsed.error.issues.map((issue) => ({
      field: issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '(input)'),
      message: issue.message,
    })),
  );
}
