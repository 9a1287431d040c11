// The workbench against the requests a hostile web page (or anyone on the network) can make, over real
// sockets: a DNS-rebinding Host, a foreign Origin, a cross-site WebSocket, every route in every path
// spelling. Nothing may be executed, read or persisted; every refusal is in the error shape.
import * as hostile from '@keel/testkit/fuzz';
import { describe, expect, test } from 'vitest';
import { startWorkbench } from '../harness.ts';

const rebound = hostile.reboundHost;
const evil = hostile.evilOrigin;

/** A shell command dressed as a runner config: what a page would plant to run code. */
const runnerConfig = {
  id: 'pwn',
  name: 'pwn',
  kind: 'cli',
  agent: 'codex',
  command: '/bin/sh',
  args: ['-c', 'touch /tmp/keel-pwned'],
};

/** Spellings the router decodes to the very route (so they reach its handler once past the guard). */
const routed = new Set([
  'as is',
  'one letter encoded',
  'segment encoded',
  'upper-case encoding',
  'with query',
]);

const attacks = [
  { method: 'GET', path: '/api/settings' },
  { method: 'GET', path: '/api/directories?hidden=true' },
  { method: 'GET', path: '/api/projects' },
  { method: 'PUT', path: '/api/settings', body: JSON.stringify({ base_url: 'http://evil.example/v1' }) },
  { method: 'PUT', path: '/api/settings', body: JSON.stringify({ runner_configs: [runnerConfig] }) },
  { method: 'POST', path: '/api/projects', body: JSON.stringify({ name: 'x', repositories: [] }) },
  { method: 'POST', path: '/api/tasks/tsk_x/cancel' },
  { method: 'DELETE', path: '/api/projects/prj_x' },
];

describe('the workbench with its defaults (no key) against a hostile page', () => {
  test('a DNS-rebinding Host is refused on every route and the WebSocket; nothing is read or changed', async () => {
    await using wb = await startWorkbench();
    const port = hostile.portOf(wb.base);
    const before = (await wb.api('GET', '/api/settings')).body;
    for (const answer of await hostile.reboundAnswers(port, attacks)) {
      expect(answer.status, answer.label).toBe(403);
      expect(answer.error?.code).toBe('PERMISSION_DENIED');
      expect(answer.error?.details?.reason).toBe('host_not_allowed');
      expect(answer.error?.message).toContain('WORKBENCH_ALLOWED_HOSTS');
      expect(answer.body).not.toContain('.ssh');
    }
    // The page itself (the SPA) is refused under a rebound name too: no foothold to script from.
    expect(
      (await hostile.rawRequest(port, { method: 'GET', path: '/', headers: { host: rebound } })).status,
    ).toBe(403);
    const socket = await hostile.trySocket(`${wb.base.replace('http', 'ws')}/api/ws`, {
      host: `${rebound}:${port}`,
    });
    expect(socket).toEqual({ kind: 'refused', status: 403 });
    expect((await wb.api('GET', '/api/settings')).body).toEqual(before);
    expect((await wb.api('GET', '/api/projects')).body).toEqual({ projects: [] });
  });

  test('a foreign Origin cannot change anything or open the WebSocket', async () => {
    await using wb = await startWorkbench();
    const port = hostile.portOf(wb.base);
    const before = (await wb.api('GET', '/api/settings')).body;
    for (const attack of attacks.filter((a) => a.method !== 'GET')) {
      for (const origin of [
        evil,
        'null',
        `http://127.0.0.1:${port + 1}`,
        `https://localhost:${port}.evil.example`,
      ]) {
        // text/plain (or no type at all) is what a page may send without a preflight.
        const answer = await hostile.rawRequest(port, {
          method: attack.method,
          path: attack.path,
          headers: { origin, 'content-type': 'text/plain' },
          ...(attack.body ? { body: attack.body } : {}),
        });
        expect(answer.status, `${attack.method} ${attack.path} from ${origin}`).toBe(403);
        expect(hostile.errorOf(answer)).toMatchObject({
          code: 'PERMISSION_DENIED',
          details: { reason: 'origin_not_allowed' },
        });
        expect(hostile.errorOf(answer)?.message).toContain('WORKBENCH_CORS_ORIGINS');
      }
    }
    const outcome = await hostile.trySocket(`${wb.base.replace('http', 'ws')}/api/ws`, { origin: evil });
    expect(outcome).toEqual({ kind: 'refused', status: 403 });
    expect((await wb.api('GET', '/api/settings')).body).toEqual(before);
    expect((await wb.api('GET', '/api/projects')).body).toEqual({ projects: [] });
  });

  test('its own page, the CORS origins and listed hosts still work', async () => {
    await using wb = await startWorkbench([], { env: { WORKBENCH_ALLOWED_HOSTS: 'workbench.test' } });
    const port = hostile.portOf(wb.base);
    for (const [host, origin] of [
      [`127.0.0.1:${port}`, `http://127.0.0.1:${port}`],
      [`localhost:${port}`, `http://localhost:${port}`],
      [`localhost:${port}`, 'http://localhost:3000'],
      [`workbench.test:${port}`, `http://workbench.test:${port}`],
    ] as const) {
      const answer = await hostile.rawRequest(port, {
        method: 'PUT',
        path: '/api/settings',
        headers: { host, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ model: `from-${origin}` }),
      });
      expect(answer.status, `${host} from ${origin}`).toBe(200);
    }
    // The socket's Host is 127.0.0.1:port, so its own origin is that one (localhost is another origin).
    const socket = await hostile.trySocket(`${wb.base.replace('http', 'ws')}/api/ws`, {
      origin: `http://127.0.0.1:${port}`,
    });
    expect(socket.kind).toBe('open');
    if (socket.kind === 'open') socket.socket.close();
  });
});

describe('the workbench with a key: authentication cannot be skipped', () => {
  test('every documented route, in every path spelling, needs the key', { timeout: 120_000 }, async () => {
    await using wb = await startWorkbench([], {
      configure: false,
      env: { WORKBENCH_AUTH_API_KEY: 'the-key' },
    });
    const port = hostile.portOf(wb.base);
    const doc = JSON.parse(
      (await hostile.rawRequest(port, { method: 'GET', path: '/docs/json' })).body,
    ) as hostile.OpenApiDocument;
    const operations = hostile
      .operationsOf(doc)
      .filter((op) => op.path !== '/health' && op.path !== '/api/health');
    expect(operations.length).toBeGreaterThan(30);
    let sent = 0;
    for (const op of operations) {
      const path = op.path.replace(/\{[^}]+\}/g, 'x');
      const method = op.method.toUpperCase();
      const body = op.method === 'get' || op.method === 'delete' ? {} : { body: '{}' };
      for (const spelling of hostile.pathSpellings(path)) {
        const answer = await hostile.rawRequest(port, {
          method,
          path: spelling.path,
          headers: { 'content-type': 'application/json' },
          ...body,
        });
        sent++;
        const where = `${method} ${spelling.path} (${spelling.name})`;
        // Spellings the router reads as the route itself must meet the key check.
        if (routed.has(spelling.name)) {
          expect(answer.status, where).toBe(401);
          expect(hostile.errorOf(answer)?.code).toBe('AUTHENTICATION_FAILED');
          continue;
        }
        // Others match no API route: the SPA's page (a GET: HTML with no data in it) or a refusal.
        if (method === 'GET' && String(answer.headers['content-type']).startsWith('text/html')) {
          expect(answer.body, where).toContain('<!doctype html>');
          continue;
        }
        expect(answer.status, where).toBeGreaterThanOrEqual(400);
        expect(hostile.errorOf(answer)?.code, where).toBeTypeOf('string');
      }
      const keyed = await hostile.rawRequest(port, {
        method,
        path,
        headers: { authorization: 'Bearer the-key', 'content-type': 'application/json' },
        ...body,
      });
      expect(keyed.status, `${method} ${path} with the key`).not.toBe(401);
    }
    expect(sent).toBeGreaterThan(300);
    const outcome = await hostile.trySocket(`${wb.base.replace('http', 'ws')}/api/ws?token=wrong`, {});
    expect(outcome).toEqual({ kind: 'closed', code: 4001 });
    const keyed = await hostile.trySocket(`${wb.base.replace('http', 'ws')}/api/ws?token=the-key`, {});
    expect(keyed.kind).toBe('open');
    if (keyed.kind === 'open') keyed.socket.close();
  });
});
