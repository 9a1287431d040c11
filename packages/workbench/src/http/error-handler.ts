import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { WorkbenchError, type WorkbenchErrorObject } from '../errors.ts';
import { storeFailure } from '../store/index.ts';

/** The one error body of every endpoint: `{"error": {"code", "message", "details"?}}`. */
export function errorBody(error: WorkbenchErrorObject): { error: WorkbenchErrorObject } {
  return { error };
}

/**
 * The ONE mapping of failures to responses: invalid input is 400 INVALID_PARAMS naming the field, a
 * WorkbenchError keeps its code and status, Fastify's own refusals (bad JSON, body too large) keep their
 * 4xx status, an unknown route is 404 NOT_FOUND, a disk or database fault is 500 STORE_ERROR saying which
 * (full, read-only, locked), and anything else is 500 SERVER_ERROR whose cause goes to the log, never to
 * the client.
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
      // An over-limit body is not a bad parameter: it says so, and how big a body may be.
      const code = error.statusCode === 413 ? 'PAYLOAD_TOO_LARGE' : 'INVALID_PARAMS';
      return reply
        .status(error.statusCode)
        .send(errorBody({ code, message: error.message, details: { reason: error.code } }));
    }
    // The request id ties the client's report to the log line with the cause.
    request.log.error({ err: error, request_id: request.id }, 'request failed');
    // A full disk, a read-only database, a lock held too long: the client is told which, not just "500".
    const fault = storeFailure(error);
    if (fault) {
      return reply
        .status(500)
        .send(errorBody({ ...fault.toJSON(), details: { ...fault.details, request_id: request.id } }));
    }
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

/** Fastify's answer to a URL its router cannot decode (`/%ff`), which bypasses setErrorHandler. */
export function answerBadUrl(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  reply
    .status(400)
    .send(errorBody({ code: 'INVALID_PARAMS', message: error.message, details: { reason: error.code } }));
}
