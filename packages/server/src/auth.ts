import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody } from './errors.ts';

/**
 * Paths open without a key: the health check and the API docs (spec section 5), and the browser
 * console's page and assets, which then ask for the key (its data comes from the API, which needs it).
 */
const open = [/^\/health$/, /^\/docs(\/|$)/, /^\/$/, /^\/console\/?$/, /^\/console\/assets\/[^/]+$/];
/** WebSocket paths: their handler checks the key (header or `?token=`) and closes with 4001 on failure. */
const sockets = [/^\/ws$/, /^\/ws\/chat\/(task\/)?[^/]+$/];

export interface AuthOptions {
  /** Told of every refused request (for the audit log); `reason` never contains the offered key. */
  onFailure?: (request: FastifyRequest, reason: string) => void;
}

/** Whether a WebSocket upgrade request may connect; refusals are reported like any other. */
export type SocketAuthorizer = (request: FastifyRequest) => boolean;

/**
 * Optional bearer-key authentication: with a key configured (`RUNTIME_AUTH_API_KEY`), every request but
 * the open paths needs `Authorization: Bearer <key>`; without one, every request passes. WebSockets may
 * send the key as `?token=<key>` instead (browsers cannot set headers on them): the returned authorizer
 * is what their handler asks.
 */
export function installAuth(
  app: FastifyInstance,
  apiKey: string | undefined,
  options: AuthOptions = {},
): SocketAuthorizer {
  if (!apiKey) return () => true;
  const expected = Buffer.from(apiKey);
  const check = (
    request: FastifyRequest,
    allowQuery: boolean,
  ): 'ok' | 'missing API key' | 'invalid API key' => {
    const header = request.headers.authorization ?? '';
    const token = allowQuery ? (request.query as { token?: unknown } | undefined)?.token : undefined;
    const offered = header.startsWith('Bearer ')
      ? header.slice('Bearer '.length).trim()
      : typeof token === 'string'
        ? token
        : undefined;
    if (offered === undefined && !header) return 'missing API key';
    const given = Buffer.from(offered ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'invalid API key';
  };
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (open.some((pattern) => pattern.test(path)) || sockets.some((pattern) => pattern.test(path))) return;
    const outcome = check(request, false);
    if (outcome === 'ok') return;
    options.onFailure?.(request, outcome);
    return reply.status(401).send(
      errorBody({
        code: 'AUTHENTICATION_FAILED',
        message:
          outcome === 'invalid API key'
            ? 'Invalid API key.'
            : 'Missing API key: send Authorization: Bearer <key>.',
      }),
    );
  });
  return (request) => {
    const outcome = check(request, true);
    if (outcome !== 'ok') options.onFailure?.(request, outcome);
    return outcome === 'ok';
  };
}
