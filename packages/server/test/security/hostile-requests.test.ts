// keel-web against the requests a hostile web page (or anyone on the network) can make, over real sockets:
// a DNS-rebinding Host, a foreign Origin, a cross-site WebSocket, every route in every path spelling, and
// a flood of wrong keys. Nothing may be executed, read or persisted; every refusal is in the error shape.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  errorOf,
  evilOrigin,
  type OpenApiDocument,
  operationsOf,
  pathSpellings,
  portOf,
  rawRequest,
  reboundAnswers,
  reboundHost,
  trySocket,
} from '@keel/testkit/fuzz';
import { describe, expect, test } from 'vitest';
import { startServer } from '../harness.ts';

const rebound = reboundHost;
const evil = evilOrigin;

/** What a hostile page would try first: read settings and folders, persist a model URL, start a run. */
function attacks(workdir: string) {
  return [
    { method: 'GET', path: '/config' },
    { method: 'GET', path: '/api/directories?hidden=true' },
    { method: 'GET', path: '/runtime/runs' },
    { method: 'PUT', path: '/config', body: JSON.stringify({ model_base_url: 'http://evil.example/v1' }) },
    { method: 'POST', path: '/runtime/runs', body: JSON.stringify({ prompt: 'write ~/.bashrc', workdir }) },
    { method: 'POST', path: '/run', body: JSON.stringify({ prompt: 'write ~/.bashrc', workdir }) },
  ];
}

describe('keel-web with its defaults (no key) against a hostile page', () => {
  test('a DNS-rebinding Host is refused on every route, and nothing is read or persisted', async () => {
    await using s = await startServer([{ text: 'never asked' }]);
    const port = portOf(s.base);
    for (const answer of await reboundAnswers(port, attacks(s.repo.path))) {
      expect(answer.status, answer.label).toBe(403);
      expect(answer.error?.code).toBe('PERMISSION_DENIED');
      expect(answer.error?.details?.reason).toBe('host_not_allowed');
      expect(answer.error?.message).toContain('--allowed-host');
    }
    // The rebinding WebSocket is refused at the upgrade.
    const socket = await trySocket(`${s.base.replace('http', 'ws')}/ws`, { host: `${rebound}:${port}` });
    expect(socket).toEqual({ kind: 'refused', status: 403 });
    expect(existsSync(join(s.home, 'config.json'))).toBe(false);
    expect(s.model.requests).toHaveLength(0);
    expect((await s.api('GET', '/runtime/runs')).body).toMatchObject({ runs: [] });
  });

  test('a foreign Origin cannot change anything or open a WebSocket; it may still GET (CORS hides the answer)', async () => {
    await using s = await startServer([{ text: 'never asked' }]);
    const port = portOf(s.base);
    for (const attack of attacks(s.repo.path).filter((a) => a.method !== 'GET')) {
      for (const origin of [evil, 'null', `http://127.0.0.1:${port + 1}`, 'http://localhost:3000']) {
        // text/plain is what a page may send without a preflight.
        const answer = await rawRequest(port, {
          method: attack.method,
          path: attack.path,
          headers: { origin, 'content-type': 'text/plain' },
          ...(attack.body ? { body: attack.body } : {}),
        });
        expect(answer.status, `${attack.method} ${attack.path} from ${origin}`).toBe(403);
        expect(errorOf(answer)).toMatchObject({
          code: 'PERMISSION_DENIED',
          details: { reason: 'origin_not_allowed' },
        });
        expect(errorOf(answer)?.message).toContain('--allowed-origin');
      }
    }
    for (const path of ['/ws', '/ws/chat/prj_x', '/ws/chat/task/tsk_x']) {
      const outcome = await trySocket(`${s.base.replace('http', 'ws')}${path}`, { origin: evil });
      expect(outcome, path).toEqual({ kind: 'refused', status: 403 });
    }
    const read = await rawRequest(port, { method: 'GET', path: '/health', headers: { origin: evil } });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    expect(existsSync(join(s.home, 'config.json'))).toBe(false);
    expect(s.model.requests).toHaveLength(0);
  });

  test('its own pages, localhost spellings and what the user listed still work', async () => {
    await using s = await startServer([{ text: 'ok' }]);
    const port = portOf(s.base);
    const change = JSON.stringify({ model: 'other-model' });
    for (const [host, origin] of [
      [`127.0.0.1:${port}`, `http://127.0.0.1:${port}`],
      [`localhost:${port}`, `http://localhost:${port}`],
      [`[::1]:${port}`, `http://[::1]:${port}`],
    ] as const) {
      const answer = await rawRequest(port, {
        method: 'PUT',
        path: '/config',
        headers: { host, origin, 'content-type': 'application/json' },
        body: change,
      });
      expect(answer.status, host).toBe(200);
    }
    expect(JSON.parse(readFileSync(join(s.home, 'config.json'), 'utf8'))).toMatchObject({
      model: 'other-model',
    });
    const socket = await trySocket(`${s.base.replace('http', 'ws')}/ws`, {
      origin: `http://127.0.0.1:${port}`,
    });
    expect(socket.kind).toBe('open');
    if (socket.kind === 'open') socket.socket.close();
  });

  test('hosts and origins listed on purpose are let through', async () => {
    await using s = await startServer([], {
      env: { RUNTIME_ALLOWED_HOSTS: 'keel.test', RUNTIME_ALLOWED_ORIGINS: 'http://tools.test:9000' },
    });
    const port = portOf(s.base);
    const answer = await rawRequest(port, {
      method: 'PUT',
      path: '/config',
      headers: {
        host: `keel.test:${port}`,
        origin: 'http://tools.test:9000',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ model: 'listed' }),
    });
    expect(answer.status).toBe(200);
  });
});

describe('keel-web with a key: authentication cannot be skipped', () => {
  test('every documented route, in every path spelling, needs the key', { timeout: 120_000 }, async () => {
    await using s = await startServer([], { apiKey: 'the-key' });
    const port = portOf(s.base);
    const doc = JSON.parse(
      (await rawRequest(port, { method: 'GET', path: '/docs/json' })).body,
    ) as OpenApiDocument;
    const operations = operationsOf(doc).filter((op) => op.path !== '/health');
    expect(operations.length).toBeGreaterThan(30);
    let sent = 0;
    for (const op of operations) {
      const path = op.path.replace(/\{[^}]+\}/g, 'x');
      for (const spelling of pathSpellings(path)) {
        const answer = await rawRequest(port, {
          method: op.method.toUpperCase(),
          path: spelling.path,
          headers: { 'content-type': 'application/json' },
          ...(op.method === 'get' || op.method === 'delete' ? {} : { body: '{}' }),
        });
        sent++;
        expect(answer.status, `${op.method} ${spelling.path} (${spelling.name})`).toBe(401);
        expect(errorOf(answer)?.code).toBe('AUTHENTICATION_FAILED');
      }
      // With the key, the route is reached (whatever it then answers, it is not the guard's 401).
      const keyed = await rawRequest(port, {
        method: op.method.toUpperCase(),
        path,
        headers: { authorization: 'Bearer the-key', 'content-type': 'application/json' },
        ...(op.method === 'get' || op.method === 'delete' ? {} : { body: '{}' }),
      });
      expect(keyed.status, `${op.method} ${path} with the key`).not.toBe(401);
    }
    expect(sent).toBeGreaterThan(300);
    for (const path of ['/ws', '/ws/chat/prj_x']) {
      const outcome = await trySocket(`${s.base.replace('http', 'ws')}${path}?token=wrong`, {});
      expect(outcome, path).toEqual({ kind: 'closed', code: 4001 });
    }
  });

  test('wrong keys are rate limited per client before the audit write; the right key always works', async () => {
    let now = 1_000_000;
    const key = 'the-owners-key-4f1c2a9e7b3d5068';
    await using s = await startServer([], { apiKey: key, now: () => now });
    const port = portOf(s.base);
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const answer = await rawRequest(port, {
        method: 'GET',
        path: '/runtime/runs',
        headers: { authorization: `Bearer guess-${i}` },
      });
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(answer.headers['retry-after']).toBe('60');
        expect(errorOf(answer)?.message).toContain('the right key still works');
      }
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(90).fill(429));
    // Any local process can send those (they all come from 127.0.0.1): the owner's key still gets in,
    // over HTTP and the WebSocket, while the flood goes on being refused.
    const owner = await rawRequest(port, {
      method: 'GET',
      path: '/runtime/runs',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(owner.status, owner.body).toBe(200);
    const socket = await trySocket(`${s.base.replace('http', 'ws')}/ws?token=${key}`, {});
    expect(socket.kind).toBe('open');
    if (socket.kind === 'open') socket.socket.close();
    const still = await rawRequest(port, {
      method: 'GET',
      path: '/runtime/runs',
      headers: { authorization: 'Bearer guess-100' },
    });
    expect(errorOf(still)?.code).toBe('RATE_LIMITED');
    // A minute later the wrong keys have left the window: a wrong key is a plain 401 again.
    now += 60_000;
    const later = await rawRequest(port, {
      method: 'GET',
      path: '/runtime/runs',
      headers: { authorization: 'bearer guess-101' },
    });
    expect(later.status).toBe(401);
    const audit = await s.api<{ entries: { event: string }[] }>(
      'GET',
      '/audit?event=auth_failure&limit=200',
      undefined,
      { authorization: `Bearer ${key}` },
    );
    // The 10 counted wrong keys and the one after the window; the flood's 91 refusals are not recorded.
    expect(audit.body.entries.filter((entry) => entry.event === 'auth_failure')).toHaveLength(11);
  });
});
