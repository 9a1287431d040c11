import { describe, expect, test } from 'vitest';
import { eventually, isTestkitError } from '../src/index.ts';

describe('eventually', () => {
  test('resolves with the first truthy answer, trying again after falsy ones', async () => {
    let tries = 0;
    const value = await eventually(() => {
      tries += 1;
      return tries >= 3 ? { tries } : undefined;
    });
    expect(value).toEqual({ tries: 3 });
  });

  test('awaits an async check, and treats a thrown error as "not yet"', async () => {
    let tries = 0;
    const value = await eventually(async () => {
      tries += 1;
      if (tries < 3) throw new Error('not ready');
      return 'ready';
    });
    expect(value).toBe('ready');
  });

  test('times out with a TIMEOUT error naming what it waited for and the last answer', async () => {
    const started = Date.now();
    const error = await eventually(() => false, {
      timeoutMs: 100,
      intervalMs: 10,
      what: 'the run to succeed',
    }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(isTestkitError(error) && error.code).toBe('TIMEOUT');
    expect((error as Error).message).toBe(
      'Timed out after 100 ms waiting for the run to succeed; last answer: false',
    );
  });

  test('the timeout names the last error, kept as the cause', async () => {
    const boom = new Error('no such file');
    const error = await eventually(
      () => {
        throw boom;
      },
      { timeoutMs: 30, what: 'the file' },
    ).catch((caught: unknown) => caught as Error);
    expect(error.message).toBe('Timed out after 30 ms waiting for the file; last error: Error: no such file');
    expect(error.cause).toBe(boom);
  });

  test('`what` may be a function, called when the time is up for context known only then', async () => {
    let seen = 0;
    const error = await eventually(
      () => {
        seen += 1;
        return null;
      },
      { timeoutMs: 30, intervalMs: 5, what: () => `a message after ${seen > 1 ? 'several' : 'one'} tries` },
    ).catch((caught: unknown) => caught as Error);
    expect(error.message).toBe(
      'Timed out after 30 ms waiting for a message after several tries; last answer: null',
    );
  });

  test('tries at least once, also with no time at all', async () => {
    await expect(eventually(() => 'now', { timeoutMs: 0 })).resolves.toBe('now');
    await expect(eventually(() => 0, { timeoutMs: 0 })).rejects.toThrow(
      'Timed out after 0 ms waiting for the check to pass; last answer: 0',
    );
  });
});
