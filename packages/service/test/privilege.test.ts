import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { installRequestGuard, OriginAllowList, privilegedChangeRefusal } from '../src/index.ts';

/** A service with the guard and one route that asks whether its request may choose a program. */
async function service(apiKey?: string) {
  const app = Fastify();
  installRequestGuard(app, {
    service: 'svc',
    apiKey,
    allowedOrigins: ['http://localhost:3000'],
    isOpenRoute: () => false,
    isSocketRoute: () => false,
    howToAllow: { host: 'h', origin: 'o', key: 'SVC_KEY' },
  });
  app.put(
    '/program',
    async (request) => privilegedChangeRefusal(request, ['runner.binary_path']) ?? 'allowed',
  );
  return app;
}

describe('who may choose a program', () => {
  test("no Origin (curl, the CLI) and the service's own page may; a listed origin may not", async () => {
    const app = await service();
    const put = (headers: Record<string, string>) =>
      app.inject({ method: 'PUT', url: '/program', headers: { host: '127.0.0.1:8000', ...headers } });
    expect((await put({})).body).toBe('allowed');
    expect((await put({ origin: 'http://127.0.0.1:8000' })).body).toBe('allowed');
    const refused = (await put({ origin: 'http://localhost:3000' })).json();
    expect(refused).toMatchObject({
      details: {
        reason: 'privileged_change_from_other_origin',
        origin: 'http://localhost:3000',
        fields: ['runner.binary_path'],
      },
    });
    expect(refused.message).toMatch(/runner\.binary_path.*own page.*curl.*SVC_KEY/s);
  });

  test('with a key, the right key makes a listed origin privileged', async () => {
    const app = await service('k'.repeat(32));
    const answer = await app.inject({
      method: 'PUT',
      url: '/program',
      headers: {
        host: '127.0.0.1:8000',
        origin: 'http://localhost:3000',
        authorization: `Bearer ${'k'.repeat(32)}`,
      },
    });
    expect(answer.body).toBe('allowed');
  });

  test('a request no guard saw is refused; no fields asks nothing', async () => {
    const app = Fastify();
    app.put('/program', async (request) => ({
      some: privilegedChangeRefusal(request, ['x']) ?? 'allowed',
      none: privilegedChangeRefusal(request, []) ?? 'allowed',
    }));
    const answer = (await app.inject({ method: 'PUT', url: '/program' })).json();
    expect(answer.some.details.reason).toBe('no_request_guard');
    expect(answer.none).toBe('allowed');
  });

  test('the own origin is the Host the request names, never a listed one', () => {
    const origins = new OriginAllowList(['http://localhost:3000']);
    expect(origins.isOwn('http://127.0.0.1:8000', '127.0.0.1:8000')).toBe(true);
    expect(origins.isOwn('http://localhost:3000', '127.0.0.1:8000')).toBe(false);
    expect(origins.isOwn('http://localhost:3000', undefined)).toBe(false);
    expect(origins.isOwn('null', '127.0.0.1:8000')).toBe(false);
  });
});
