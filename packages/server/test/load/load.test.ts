import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { startServer } from '../harness.ts';

const run = promisify(execFile);

interface Answer {
  status: number;
  limit: string | null;
  remaining: string | null;
  retryAfter: string | null;
  code: string | null;
}

/** Sends `requests` authenticated GETs from a second Node process and answers what each got. */
async function load(base: string, token: string, requests: number): Promise<Answer[]> {
  const options = {
    base,
    token,
    requests,
    concurrency: 32,
    paths: ['/runtime/runs', '/sessions', '/skills', '/config/status'],
  };
  const { stdout } = await run(
    process.execPath,
    [join(import.meta.dirname, 'load-client.ts'), JSON.stringify(options)],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(stdout) as Answer[];
}

const count = (answers: Answer[], status: number) =>
  answers.filter((answer) => answer.status === status).length;

describe('load from a second process, with auth and the rate limit on', () => {
  test('3,600 requests: exactly the limit gets in per window, the headers are right at both edges', {
    timeout: 120_000,
  }, async () => {
    // The window slides by this clock: the test moves it between bursts instead of waiting.
    let now = 5_000_000;
    const max = 1_000;
    await using s = await startServer([], {
      apiKey: 'load-key',
      config: { rate_limit: { enabled: true } },
      rateLimit: { windowMs: 60_000, max, now: () => now },
      now: () => now,
    });

    // A burst larger than the limit, all inside one window: the first `max` pass, the rest are refused.
    const first = await load(s.base, 'load-key', 1_200);
    expect(count(first, 200)).toBe(max);
    expect(count(first, 429)).toBe(200);
    expect(first.every((answer) => answer.limit === String(max))).toBe(true);
    // Each allowed request used one unit: every remaining count from max-1 down to 0 appears exactly once.
    const remaining = first
      .filter((answer) => answer.status === 200)
      .map((answer) => Number(answer.remaining));
    expect(remaining.sort((a, b) => b - a)).toEqual(Array.from({ length: max }, (_, i) => max - 1 - i));
    // Every refusal: the error shape, nothing left, and a wait of the whole window (nothing has left it).
    for (const refused of first.filter((answer) => answer.status === 429)) {
      expect(refused).toEqual({
        status: 429,
        limit: String(max),
        remaining: '0',
        retryAfter: '60',
        code: 'RATE_LIMITED',
      });
    }

    // The window's far edge: 1 ms before the first requests leave it, still refused, asked to wait 1 s.
    now += 59_999;
    const edge = await load(s.base, 'load-key', 200);
    expect(count(edge, 429)).toBe(200);
    expect(edge.every((answer) => answer.retryAfter === '1')).toBe(true);

    // At the edge they have left: a new window's worth gets in again, and not one more.
    now += 1;
    const second = await load(s.base, 'load-key', 1_200);
    expect(count(second, 200)).toBe(max);
    expect(count(second, 429)).toBe(200);

    // Wrong credentials are refused before the limiter and do not use its budget: the first ten of a
    // minute are told the key is wrong, the rest are refused unheard (the guard's own guessing limit).
    now += 60_000;
    const strangers = await load(s.base, 'wrong-key', 1_000);
    expect(count(strangers, 401)).toBe(10);
    expect(count(strangers, 429)).toBe(990);
    expect(strangers.every((answer) => answer.limit === null)).toBe(true);
    expect(
      strangers.filter((answer) => answer.status === 401).every((a) => a.code === 'AUTHENTICATION_FAILED'),
    ).toBe(true);
    expect(strangers.filter((answer) => answer.status === 429).every((a) => a.code === 'RATE_LIMITED')).toBe(
      true,
    );
    // While the guesses fill the window the right key still works (issue #36: nobody on the machine can lock
    // the owner out), and wrong ones are still refused until they leave it.
    expect((await load(s.base, 'load-key', 1))[0]).toMatchObject({ status: 200, remaining: String(max - 1) });
    expect((await load(s.base, 'wrong-key', 1))[0]).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    now += 60_000;
    expect((await load(s.base, 'wrong-key', 1))[0]).toMatchObject({ status: 401 });
    const after = await load(s.base, 'load-key', 1);
    expect(after[0]).toMatchObject({ status: 200 });
    expect((await s.api('GET', '/health')).status).toBe(200);
  });
});
