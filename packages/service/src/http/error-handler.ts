import type { ErrorObject } from '@keel/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { refuseTooLargeBody } from './body-limit.ts';

/** The services' error object: `{"error": {"code", "message", "details"?}}` is every error body. */
export type ServiceErrorObject = ErrorObject;

export function errorBody<E extends ServiceErrorObject>(error: E): { error: E } {
  return { error };
}

export interface ErrorMapping {
  /**
   * A service's own error with the status its code table gives, or undefined (not one of ours). `request`
   * tells which route it came from (`invalidFieldsStatusOf`).
   */
  known(error: unknown, request: FastifyRequest): { status: number; error: ServiceErrorObject } | undefined;
  /**
   * A fault worth naming to the client after it is logged (a full disk, a locked database), or undefined
   * for a plain 500 SERVER_ERROR.
   */
  fault?(error: unknown): ServiceErrorObject | undefined;
}

/**
 * The routes a plugin registers after this call answer invalid fields with `status` instead of 400 (keel-web's
 * project and task endpoints: 422, spec section 7 rule 2). Set on each route, read by the one handler.
 */
export function answerInvalidFieldsWith(app: FastifyInstance, status: number): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), invalidFieldsStatus: status } as typeof route.config;
  });
}

/** The status the request's route answers invalid fields with: 400 unless `answerInvalidFieldsWith` said. */
export function invalidFieldsStatusOf(request: FastifyRequest): number {
  const config = request.routeOptions?.config as { invalidFieldsStatus?: number } | undefined;
  return config?.invalidFieldsStatus ?? 400;
}

/**
 * The ONE mapping of failures to responses, for both services: invalid input is 400 INVALID_PARAMS naming
 * the field (or the status its route asked for: `answerInvalidFieldsWith`), a service's own error keeps its code and status, a body over the limit is 413 PAYLOAD_TOO_LARGE
 * (answered once the body is read, so the client gets it: `refuseTooLargeBody`), Fastify's other refusals
 * (bad JSON, a wrong content length) keep their 4xx status as INVALID_PARAMS, an unknown route is 404
 * NOT_FOUND, and anything else is a 500 whose cause goes to the log with the request id, never to the client.
 */
export function installErrorHandling(app: FastifyInstance, mapping: ErrorMapping): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        field: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
        message: issue.message ?? 'is invalid',
      }));
      const first = issues[0];
      return reply.status(invalidFieldsStatusOf(request)).send(
        errorBody({
          code: 'INVALID_PARAMS',
          message: first ? `${first.field}: ${first.message}` : 'Invalid request.',
          details: { issues },
        }),
      );
    }
    const known = mapping.known(error, request);
    if (known) return reply.status(known.status).send(errorBody(known.error));
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return refuseTooLargeBody(request, reply);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const code = error.statusCode === 413 ? 'PAYLOAD_TOO_LARGE' : 'INVALID_PARAMS';
      return reply
        .status(error.statusCode)
        .send(errorBody({ code, message: error.message, details: { reason: error.code } }));
    }
    // The request id ties the client's report to the log line with the cause.
    request.log.error({ err: error, request_id: request.id }, 'request failed');
    const fault = mapping.fault?.(error);
    if (fault) {
      return reply
        .status(500)
        .send(errorBody({ ...fault, details: { ...fault.details, request_id: request.id } }));
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

/** Fastify's answer to a URL its router cannot decode (`/%ff`), which bypasses the error handler. */
export function answerBadUrl(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  reply
    .status(400)
    .send(errorBody({ code: 'INVALID_PARAMS', message: error.message, details: { reason: error.code } }));
}
