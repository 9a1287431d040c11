import type { z } from 'zod';
import { InvalidParamsError } from '../errors/index.ts';

// Checking what creating and updating projects and tasks take: the schemas are the wire's
// (`src/wire/project-bodies.ts`), so HTTP and SDK callers get the same rules.

export {
  type NewProjectInput,
  type NewTaskInput,
  newProjectSchema,
  newTaskSchema,
  type ProjectUpdateInput,
  projectUpdateSchema,
  type TaskUpdateInput,
  taskUpdateSchema,
} from '../wire/index.ts';

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
