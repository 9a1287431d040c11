import { type ErrorObject, httpStatusOf, KeelError } from '@keel/runtime';
import {
  answerInvalidFieldsWith,
  installErrorHandling as installServiceErrorHandling,
  invalidFieldsStatusOf,
} from '@keel/service';
import type { FastifyInstance, FastifyRequest } from 'fastify';

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
    known: (error, request) => {
      if (!KeelError.is(error)) return undefined;
      return unprocessable(error, request) ?? { status: httpStatusOf[error.code], error: error.toJSON() };
    },
  });
}

/**
 * The web project and task endpoints answer an invalid field with 422 (spec section 7, rule 2), in the one
 * error shape: `{"error": {"code": "INVALID_PARAMS", "message": "<field>: <reason>", "details": {"issues":
 * [{"field", "message"}, …]}}}`, fields named by where they are (`body.name`, `querystring.limit`). Called in
 * those endpoints' plugin; the schema's refusals are answered 422 by the one handler.
 */
export function answerInvalidFieldsWith422(app: FastifyInstance): void {
  answerInvalidFieldsWith(app, 422);
}

/** The runtime's own INVALID_PARAMS, on a route that answers 422: its fields named as the schema's are. */
function unprocessable(error: KeelError, request: FastifyRequest) {
  if (invalidFieldsStatusOf(request) !== 422) return undefined;
  if (error.code !== 'INVALID_PARAMS' || !Array.isArray(error.details?.issues)) return undefined;
  // The runtime names body fields plainly (`workdir`); here they are named as the schema's 422s are.
  const issues = (error.details.issues as { field: string; message: string }[]).map((issue) => ({
    field: /^(body|querystring|params)\./.test(issue.field) ? issue.field : `body.${issue.field}`,
    message: issue.message,
  }));
  const first = issues[0];
  const message = first ? `${first.field}: ${first.message}` : 'Invalid request.';
  return { status: 422, error: { code: 'INVALID_PARAMS' as const, message, details: { issues } } };
}
