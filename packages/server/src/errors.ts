import { answerClientError, type ErrorObject, httpStatusOf, KeelError } from '@keel/runtime';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** The one error body of every endpoint (spec section 7): `{"error": {"code", "message", "details"?}}`. */
export function errorBody(error: ErrorObject): { error: ErrorObject } {
  return { error };
}

/**
 * Maps every failure to the spec's error shape: invalid input is 400 INVALID_PARAMS naming the field,
 * a KeelError keeps its code and status, an unknown route is 404, and anything else is a 500
 * SERVER_ERROR whose cause goes to the log, never to the client.
 */
export function installErrorHandling(app: FastifyInstance): void {
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
    if (KeelError.is(error)) return reply.status(httpStatusOf[error.code]).send(errorBody(error.toJSON()));
    // Fastify's own refusals of a malformed request: bad JSON, wrong content type, body too large.
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .status(error.statusCode)
        .send(errorBody({ code: 'INVALID_PARAMS', message: error.message, details: { reason: error.code } }));
    }
    // The request id ties the client's report to the log line with the cause.
    request.log.error({ err: error, request_id: request.id }, 'request failed');
    return reply.status(500).send(
      errorBody({
        code: 'SERVER_ERROR',
        message: 'Internal server error.',
        details: { request_id: request.id },
      }),
    );
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
  frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(400)
      .send(errorBody({ code: 'INVALID_PARAMS', message: error.message, details: { reason: error.code } })),
};
