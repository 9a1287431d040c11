import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createServer } from '../src/index.ts';
import { startServer } from './harness.ts';

const enabled = { rate_limit: { enabled: true } };

describe('rate limit (rate_limit.enabled)', () => {
  test('over the limit: 429 RATE_LIMITED with Retry-After; /health is never limited; the window slides', async () => {
    // The window slides by this clock, which the test moves instead of waiting a second.
    let now = 1_000_000;
    await using s = await startServer([], {
      config: enabled,
      rateLimit: { windowMs: 1_000, max: 3, now: () => now },
    });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await s.exchange('GET', '/runtime/runs'));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-limit'))).toEqual(['3', '3', '3']);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
    expect(answers[0]!.headers.get('retry-after')).toBeNull();

    const limited = await s.exchange('GET', '/sessions');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/rate limit exceeded/i),
    });
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('retry-after')).toBe('1');

    for (let i = 0; i < 5; i++) {
      const health = await s.exchange('GET', '/health');
      expect(health.status).toBe(200);
      expect(health.headers.get('x-ratelimit-limit')).toBeNull();
    }

    // Just short of a second later the window still holds them; a second later they have left it.
    now += 999;
    expect((await s.exchange('GET', '/runtime/runs')).status).toBe(429);
    now += 1;
    const again = await s.exchange('GET', '/runtime/runs');
    expect(again.status).toBe(200);
    expect(again.headers.get('retry-after')).toBeNull();
  });

  test('window_seconds and max_requests come from the configuration', async () => {
    await using s = await startServer([], {
      config: { rate_limit: { enabled: true, window_seconds: 30, max_requests: 2 } },
    });
    expect((await s.exchange('GET', '/runtime/runs')).headers.get('x-ratelimit-limit')).toBe('2');
    expect((await s.exchange('GET', '/runtime/runs')).status).toBe(200);
    const limited = await s.exchange('GET', '/runtime/runs');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    expect(limited.body.error.details).toMatchObject({ limit: 2, window_seconds: 30 });
  });

  test('disabled (the default, or enabled: false): no limit and no rate-limit headers', async () => {
    for (const config of [undefined, { rate_limit: { enabled: false, max_requests: 1 } }]) {
      await using s = await startServer([], { ...(config ? { config } : {}), rateLimit: { max: 1 } });
      for (let i = 0; i < 4; i++) {
        const answer = await s.exchange('GET', '/runtime/runs');
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
        expect(answer.headers.get('x-ratelimit-remaining')).toBeNull();
      }
    }
  });

  test('authentication comes first: refused requests do not use up the budget of the client', async () => {
    await using s = await startServer([], { config: enabled, apiKey: 'k3y', rateLimit: { max: 2 } });
    for (let i = 0; i < 3; i++) {
      const refused = await s.exchange('GET', '/runtime/runs');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('x-ratelimit-limit')).toBeNull();
    }
    const auth = { authorization: 'Bearer k3y' };
    expect((await s.exchange('GET', '/runtime/runs', undefined, auth)).status).toBe(200);
    expect((await s.exchange('GET', '/runtime/runs', undefined, auth)).status).toBe(200);
    expect((await s.exchange('GET', '/runtime/runs', undefined, auth)).status).toBe(429);
  });

  test('an event stream carries the headers too', async () => {
    await using s = await startServer([{ text: 'done' }], { config: enabled });
    const { body: run } = await s.exchange('POST', '/runtime/runs', { prompt: 'hi', workdir: s.repo.path });
    await s.until(run.id, (each) => each.status === 'succeeded');
    const stream = await fetch(`${s.base}/runtime/runs/${run.id}/events`);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.headers.get('x-ratelimit-limit')).toBe('120');
    await stream.text();
  });

  test('an invalid rate_limit setting stops the server from starting, naming the setting', async () => {
    const home = await mkdtemp(join(tmpdir(), 'keel-web-rate-'));
    try {
      await writeFile(
        join(home, 'config.json'),
        JSON.stringify({ rate_limit: { enabled: true, max_requests: 'many' } }),
      );
      await expect(
        createServer({ runtime: { env: { RUNTIME_HOME: home } }, workdir: home }),
      ).rejects.toMatchObject({
        code: 'CONFIG_ERROR',
        message: expect.stringContaining('rate_limit.max_requests'),
      });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
