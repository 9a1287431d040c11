// What every Keel service's wire shares: the error shape and instants. The services' own records are in
// `@keel/protocol/workbench` and `@keel/protocol/runtime`.
import { z } from 'zod';

/** An error as every answer and event carries it: a code from the service's table, words, and details. */
export const errorObject = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorObject = z.infer<typeof errorObject>;

/** The body of every error answer: `{"error": {"code", "message", "details"?}}`. */
export const errorBody = z.object({ error: errorObject });
export type ErrorBody = z.infer<typeof errorBody>;

/** An instant as ISO 8601 text. */
export const timestamp = z.string();

/** `GET /health`, `GET /api/health` of both services: open even when a key is required. */
export const health = z.object({ status: z.literal('ok'), version: z.string(), uptime_seconds: z.number() });
export type Health = z.infer<typeof health>;
