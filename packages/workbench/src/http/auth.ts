import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody } from './error-handler.ts';

// Open without the key: health, the API docs, and the browser app's own files (everything but /api/…),
// which hold no data; the app sends the key with each API call.
const open = [/^\/health$/, /^\/api\/health$/, /^\/docs(\/|$)/, /^\/(?!api(\/|$))/];
/** The WebSocket path: its handler checks the key (header or `?token=`) and closes with 4001. */
const socketPath = /^\/api\/ws$/;

/** Close code of a WebSocket connection without a valid key. */
export const unauthorizedClose = 4001;

export type SocketAuthorizer = (request: FastifyRequest) => boolean;

/**
 * Optional bearer-key authentication (`WORKBENCH_AUTH_API_KEY`): with a key, every request but the open
 * paths needs `Authorization: Bearer <key>` (401 AUTHENTICATION_FAILED otherwise); the WebSocket may send it
 * as `?token=` because browsers cannot set headers on one. Returns what the WebSocket handler asks.
 */
export function installAuth(app: FastifyInstance, apiKey: string | undefined): SocketAuthorizer {
  if (!apiKey) return () => true;
  const expected = Buffer.from(apiKey);
  const matches = (offered: string | undefined) => {
    if (offered === undefined) return false;
    const given = Buffer.from(offered);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const bearer = (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    return header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
  };
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (open.some((pattern) => pattern.test(path)) || socketPath.test(path)) return;
    if (request.method === 'OPTIONS') return; // CORS preflights carry no credentials
    const offered = bearer(request);
    if (matches(offered)) return;
    return reply.status(401).send(
      errorBody({
        code: 'AUTHENTICATION_FAILED',
        message:
          offered === undefined
            ? 'Missing API key: send Authorization: Bearer <WORKBENCH_AUTH_API_KEY>.'
            : 'Invalid API key.',
      }),
    );
  });
  return (request) => {
    const token = (request.query as { token?: unknown } | undefined)?.token;
    return matches(bearer(request) ?? (typeof token === 'string' ? token : undefined));
  };
}
