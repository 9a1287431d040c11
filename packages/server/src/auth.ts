import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors.ts';

/** Paths open without a key (spec section 5): the health check and the API docs. */
const open = [/^\/health$/, /^\/docs(\/|$)/];

/**
 * Optional bearer-key authentication: with a key configured (`RUNTIME_AUTH_API_KEY`), every request but
 * the open paths needs `Authorization: Bearer <key>`; without one, every request passes.
 */
export function installAuth(app: FastifyInstance, apiKey: string | undefined): void {
  if (!apiKey) return;
  const expected = Buffer.from(apiKey);
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (open.some((pattern) => pattern.test(path))) return;
    const header = request.headers.authorization ?? '';
    const given = Buffer.from(header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return;
    return reply.status(401).send(
      errorBody({
        code: 'AUTHENTICATION_FAILED',
        message: header ? 'Invalid API key.' : 'Missing API key: send Authorization: Bearer <key>.',
      }),
    );
  });
}
