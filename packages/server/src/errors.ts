import { answerClientError, type ErrorObject, httpStatusOf, KeelError } from '@keel/runtime';
import { answerBadUrl, installErrorHandling as installServiceErrorHandling } from '@keel/service';
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

/**
 * Fastify's options for requests its router or Node's HTTP parser refuse before any handler runs: long
 * path parameters reach the handlers (which answer 404 or 400 in the error shape), and a request Node
 * cannot parse (headers too large, a broken request line) or a URL it cannot decode gets the error shape
 * too, not Fastify's own body.
 */
export const frameworkOptions = {
  routerOptions: { maxParamLength: 1024 },
  clientErrorHandler: answerClientError,
  // A URL the router cannot decode (`/%ff`) is refused before routing, outside setErrorHandler.
  frameworkErrors: answerBadUrl,
};
