import { InvalidParamsError } from '../errors/index.ts';
import { type ParsedRunRequest, runRequestSchema } from '../wire/index.ts';

// The run request's schema is the wire's (`@keel/runtime/wire`, which @keel/protocol re-exports); what the
// runtime adds is how a bad one fails.
export type { ParsedRunRequest, RunRequest } from '../wire/index.ts';
export { imagePayloadSchema, runRequestSchema } from '../wire/index.ts';

/** Validates a run request; a bad one is an InvalidParamsError listing every problem. */
export function parseRunRequest(value: unknown): ParsedRunRequest {
  const parsed = runRequestSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => ({
    field: issue.path.join('.') || '(body)',
    message: issue.message,
  }));
  const text = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  throw new InvalidParamsError(`Invalid run request: ${text}`, { problems });
}
