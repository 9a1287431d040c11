import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { WorkbenchError, type WorkbenchErrorObject } from '../errors.ts';

/** The one error body of every endpoint: `{"error": {"code", "message", "details"?}}`. */
export function errorBody(error: WorkbenchErrorObject): { error: WorkbenchErrorObject } {
  return { error };
}

/**
 * The ONE mapping of failures to responses: invalid input is 400 INVALID_PARAMS naming the field, a
 * WorkbenchError keeps its code and status, Fastify's own refusals (bad JSON, body too large) keep their
 * 4xx status, an unknown route is 404 NOT_FOUND, and anything else is 500 SERVER_ERROR whose cause goes to
 * the log, never to the client.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        field: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
        message: issue.message ?? 'is invalid',
      }));
      const first = issues[0];
      return reply.status(400).send(
        errorBody({
          code: 'INVALID_PARAMS',
          message: first ? `${first.field}: ${first.message}` : 'Invalid request.',
          details: { issues },
        }),
      );
    }
    if (WorkbenchError.is(error)) return reply.status(error.status).send(errorBody(error.toJSON()));
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .status(error.statusCode)
        .send(errorBody({ code: 'INVALID_PARAMS', message: error.message, details: { reason: error.code } }));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(errorBody({ code: 'SERVER_ERROR', message: 'Internal server error.' }));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(
      errorBody({
        code: 'NOT_FOUND',
        message: `No endpoint ${request.method} ${request.url.split('?')[0]}.`,
      }),
    ),
  );
}
