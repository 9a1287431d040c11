import { describe, expect, test } from 'vitest';
import { SlidingWindowLimiter } from '../src/rate/sliding-window.ts';

function limiterAt(start: number, options: { windowMs: number; max: number; maxClients?: number }) {
  const clock = { now: start };
  const limiter = new SlidingWindowLimiter({ ...options, now: () => clock.now });
  return { limiter, clock };
}

describe('SlidingWindowLimiter', () => {
  test('allows max requests in a window, then refuses with the wait until the oldest one leaves', () => {
    const { limiter, clock } = limiterAt(0, { windowMs: 10_000, max: 3 });
    expect([0, 1, 2].map(() => limiter.hit('a').remaining)).toEqual([2, 1, 0]);
    clock.now = 2_500;
    expect(limiter.hit('a')).toEqual({ allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 8 });
  });

  test('the window slides: a request leaves it exactly windowMs after it was made, not at a fixed reset', () => {
    const { limiter, clock } = limiterAt(0, { windowMs: 1_000, max: 2 });
    expect(limiter.hit('a').allowed).toBe(true); // t=0
    clock.now = 600;
    expect(limiter.hit('a').allowed).toBe(true); // t=600
    clock.now = 700;
    expect(limiter.hit('a').allowed).toBe(false);
    clock.now = 1_001; // t=0 has left the window, t=600 has not
    expect(limiter.hit('a')).toMatchObject({ allowed: true, remaining: 0 });
    clock.now = 1_100; // a fixed window that reset at t=1000 would allow this one
    expect(limiter.hit('a')).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    clock.now = 1_601;
    expect(limiter.hit('a').allowed).toBe(true);
  });

  test('refused requests do not count, so a client retrying in a loop gets in once room frees up', () => {
    const { limiter, clock } = limiterAt(0, { windowMs: 1_000, max: 1 });
    limiter.hit('a');
    for (let t = 100; t < 1_000; t += 100) {
      clock.now = t;
      expect(limiter.hit('a').allowed).toBe(false);
    }
    clock.now = 1_000;
    expect(limiter.hit('a').allowed).toBe(true);
  });

  test('each client has its own window', () => {
    const { limiter } = limiterAt(0, { windowMs: 1_000, max: 1 });
    expect(limiter.hit('10.0.0.1').allowed).toBe(true);
    expect(limiter.hit('10.0.0.1').allowed).toBe(false);
    expect(limiter.hit('10.0.0.2').allowed).toBe(true);
  });

  test('memory stays bounded: idle clients are dropped after a window, and at most maxClients are kept', () => {
    const { limiter, clock } = limiterAt(0, { windowMs: 1_000, max: 5, maxClients: 3 });
    for (const client of ['a', 'b', 'c', 'd']) limiter.hit(client);
    expect(limiter.clients).toBe(3);
    // 'a' was the least recently seen, so it was forgotten: its next request starts a fresh window.
    expect(limiter.hit('a').remaining).toBe(4);
    expect(limiter.hit('c').remaining).toBe(3);
    clock.now = 2_000;
    limiter.hit('e');
    expect(limiter.clients).toBe(1);
  });
});
