// Requests refused before any handler runs (by Node's HTTP parser or Fastify's router) still get the
// services' error shape, through `frameworkOptions`: the same for keel-web and the workbench.
import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { errorBody, frameworkOptions, installErrorHandling } from '../src/index.ts';
import { rawRequest } from './raw-request.ts';

async function startApp() {
  const app = Fastify({ ...frameworkOptions });
  installErrorHandling(app, { known: () => undefined });
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/items/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    return reply
      .status(404)
      .send(errorBody({ code: 'NOT_FOUND', message: `No item of ${id.length} characters.` }));
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { base, [Symbol.asyncDispose]: () => app.close() };
}

describe('requests refused before any handler still get the error shape', () => {
  test('headers too large (431), a broken request (400), an undecodable URL (400), a long path parameter (its handler)', async () => {
    await using app = await startApp();
    const big = await rawRequest(
      app.base,
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(big).toEqual({
      status: 431,
      body: {
        error: {
          code: 'INVALID_PARAMS',
          message: 'The request headers are too large.',
          details: { reason: 'HPE_HEADER_OVERFLOW' },
        },
      },
    });
    const garbage = await rawRequest(app.base, 'GARBAGE\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(garbage.body).toMatchObject({ error: { code: 'INVALID_PARAMS' } });
    const undecodable = await rawRequest(
      app.base,
      'GET /items/%ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(undecodable.status).toBe(400);
    expect(undecodable.body).toMatchObject({ error: { code: 'INVALID_PARAMS' } });

    const long = await fetch(`${app.base}/items/${'a'.repeat(300)}`);
    expect(long.status).toBe(404);
    expect(await long.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'No item of 300 characters.' },
    });
    // The server still answers afterwards.
    expect((await fetch(`${app.base}/health`)).status).toBe(200);
  });
});
