import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceLog } from './service-log.ts';

/**
 * Logs every answer of 500 or more, whichever handler gave it (the error handler's SERVER_ERROR, a known
 * code mapped to 500 such as STORE_ERROR, a route's own): method, path (no query string: a WebSocket's
 * `?token=` is a key), status, the answered code, the request id the client was given, and the cause (its
 * message and code). Never the request's body or headers. Install before the routes register (the hooks
 * reach the routes registered after them).
 */
export function logServerErrors(app: FastifyInstance, log: ServiceLog): void {
  // The error a request failed with, seen before the error handler turns it into an answer.
  const causes = new WeakMap<FastifyRequest, unknown>();
  app.addHook('onError', async (request, _reply, error) => {
    causes.set(request, error);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 500) return payload;
    const answered = answeredError(payload);
    const cause = causes.get(request) as (Error & { code?: unknown }) | undefined;
    log.error('request failed', {
      method: request.method,
      path: request.url.split('?')[0],
      status: reply.statusCode,
      request_id: request.id,
      code: answered?.code,
      error: cause?.message ?? answered?.message,
      // The cause's own code when it says more (SQLITE_BUSY, ENOSPC), not the answered one again.
      ...(typeof cause?.code === 'string' && cause.code !== answered?.code ? { error_code: cause.code } : {}),
    });
    return payload;
  });
}

/** The `error` of an answer in the services' error shape, if that is what it is. */
function answeredError(payload: unknown): { code?: string; message?: string } | undefined {
  if (typeof payload !== 'string' || payload.length > 64 * 1024) return undefined;
  try {
    const error = (JSON.parse(payload) as { error?: unknown }).error;
    if (typeof error !== 'object' || error === null) return undefined;
    const { code, message } = error as Record<string, unknown>;
    return {
      ...(typeof code === 'string' ? { code } : {}),
      ...(typeof message === 'string' ? { message } : {}),
    };
  } catch {
    return undefined;
  }
}
