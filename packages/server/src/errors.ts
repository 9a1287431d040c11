import { type ErrorObject, httpStatusOf, KeelError } from '@keel/runtime';
import { installErrorHandling as installServiceErrorHandling } from '@keel/service';
import type { FastifyInstance } from 'fastify';

/** The one error body of every endpoint (spec section 7): `{"error": {"code", "message", "details"?}}`. */
export function errorBody(error: ErrorObject): { error: ErrorObject } {
  return { error };
}

/**
 * The services' one error handler with keel-web's errors: a KeelError keeps its code with the status of
 * the runtime's code table (spec section 7); everything else as both services answer it.
 */
export function installErrorHandling(app: FastifyInstance): void {
  installServiceErrorHandling(app, {
    known: (error) =>
      KeelError.is(error) ? { status: httpStatusOf[error.code], error: error.toJSON() } : undefined,
  });
}
