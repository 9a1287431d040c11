import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { createRuntime, KeelError, type RuntimeEvent } from '../../src/index.ts';
import type { ModelSettings, RetryNotice } from '../../src/model/index.ts';
import { ModelClient } from '../../src/model/index.ts';
import { retryAfterOf } from '../../src/model/retry.ts';

// A server that asks Keel to wait (429 with Retry-After) or that is still loading its model (503) is waited
// for as it says, and the retry notices say how long. No test waits on the clock: the client's `sleep`
// records each delay and returns at once.

/** llama.cpp's answer to every request while it loads the model (ggml-org/llama.cpp#9056). */
const loading = { error: { status: 503, message: 'Loading model' } };

/** A client of `url` whose waits are recorded instead of slept, and one turn's outcome. */
async function turnAgainst(url: string, settings: Partial<ModelSettings> = {}) {
  const waits: number[] = [];
  const retries: RetryNotice[] = [];
  const client = new ModelClient({
    model: 'mock-model',
    apiKey: 'no-key',
    baseURL: url,
    sleep: async (ms) => void waits.push(ms),
    ...settings,
  });
  const outcome = await client
    .turn([{ role: 'user', content: 'hi' }], [], { onRetry: (notice) => void retries.push(notice) })
    .then(
      (turn) => ({ turn, error: undefined }),
      (error: unknown) => ({ turn: undefined, error }),
    );
  return { ...outcome, waits, retries };
}

describe('waiting as the server says', () => {
  test('503 while a local model loads: waited for longer than any 5xx, every wait announced', async () => {
    // Six tries meet a loading model: more than the four attempts any other failure gets.
    await using model = await startMockModel({ script: [...Array(6).fill(loading), { text: 'Loaded.' }] });
    const { turn, error, waits, retries } = await turnAgainst(model.url);
    expect(error).toBeUndefined();
    expect(turn?.text).toBe('Loaded.');
    // Five seconds between tries, for up to three minutes: 1 + 180 / 5 attempts.
    expect(waits).toEqual([5000, 5000, 5000, 5000, 5000, 5000]);
    expect(retries.map((notice) => notice.attempt)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(retries.every((notice) => notice.max_attempts === 37)).toBe(true);
    expect(retries[0]!.error).toBe(
      `The model endpoint ${model.url} is still loading the model (HTTP 503: 503 Loading model). ` +
        'Keel waits 5 s and tries again, for up to 180 s in all while the model loads.',
    );
  });

  test('a plain 503 is any 5xx: the ordinary retries, with backoff', async () => {
    await using model = await startMockModel({
      script: [{ error: { status: 503 }, repeat: true }],
    });
    const { error, waits, retries } = await turnAgainst(model.url, { retry: { baseDelayMs: 100 } });
    expect(KeelError.is(error) && error.code).toBe('MODEL_ERROR');
    expect(retries.map((notice) => [notice.attempt, notice.max_attempts])).toEqual([
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    expect(retries[0]!.error).not.toContain('loading');
    expect(waits).toHaveLength(3);
    expect(waits[2]).toBeGreaterThan(waits[0]!);
  });

  test('a model that never loads: bounded, and the error says how long Keel waited', async () => {
    await using model = await startMockModel({ script: [{ ...loading, repeat: true }] });
    const { error, waits } = await turnAgainst(model.url, {
      retry: { maxLoadingWaitMs: 20_000, loadingDelayMs: 5000 },
    });
    expect(waits).toEqual([5000, 5000, 5000, 5000]);
    expect(model.chatRequests).toHaveLength(5);
    expect(KeelError.is(error) && error.code).toBe('MODEL_ERROR');
    expect((error as KeelError).message).toContain('is still loading the model');
    expect((error as KeelError).message).toContain('Keel waited 20 s for it to load');
    expect((error as KeelError).details).toMatchObject({ reason: 'loading', status: 503, waited_ms: 20_000 });
  });

  test('429 with Retry-After in seconds: waits exactly that long and says so', async () => {
    await using model = await startMockModel({
      script: [{ error: { status: 429, message: 'slow down', retryAfterSeconds: 7 } }, { text: 'ok' }],
    });
    const { turn, waits, retries } = await turnAgainst(model.url);
    expect(turn?.text).toBe('ok');
    expect(waits).toEqual([7000]);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.error).toMatch(
      /answered HTTP 429: 429 slow down\..*Waiting 7 s, as the server's Retry-After asked\.$/,
    );
  });

  test('a Retry-After longer than Keel waits is cut to 60 s, and the notice says so', async () => {
    await using model = await startMockModel({
      script: [{ error: { status: 429, retryAfterSeconds: 3600 } }, { text: 'ok' }],
    });
    const { waits, retries } = await turnAgainst(model.url);
    expect(waits).toEqual([60_000]);
    expect(retries[0]!.error).toContain('Waiting 60 s (it asked for longer; Keel waits at most 60 s)');
  });

  test('429 with Retry-After as an HTTP date: counted from the answer’s own Date header', async () => {
    await using model = await startMockModel({
      script: [{ error: { status: 429, retryAfterSeconds: 1 } }, { text: 'ok' }],
    });
    // The same answer, its Retry-After written as a date 12 s after the server's Date.
    const dated: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (answer.status !== 429) return answer;
      const headers = new Headers(answer.headers);
      const sent = Date.parse(answer.headers.get('date')!);
      headers.set('retry-after', new Date(sent + 12_000).toUTCString());
      return new Response(answer.body, { status: answer.status, headers });
    };
    const { turn, waits } = await turnAgainst(model.url, { fetch: dated });
    expect(turn?.text).toBe('ok');
    expect(waits).toEqual([12_000]);
  });

  test('Retry-After is read in every form servers send', () => {
    const at = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    const headers = (entries: Record<string, string>) => new Headers(entries);
    expect(retryAfterOf(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterOf(headers({ 'retry-after': '1.5' }))).toBe(1500);
    // OpenAI's own, finer header comes first.
    expect(retryAfterOf(headers({ 'retry-after-ms': '250', 'retry-after': '1' }))).toBe(250);
    // A date: from the answer's Date, or from the local clock when it has none; a past date is now.
    const date = 'Wed, 21 Oct 2026 07:28:30 GMT';
    expect(retryAfterOf(headers({ 'retry-after': date, date: 'Wed, 21 Oct 2026 07:28:00 GMT' }))).toBe(
      30_000,
    );
    expect(retryAfterOf(headers({ 'retry-after': date }), () => at + 10_000)).toBe(20_000);
    expect(retryAfterOf(headers({ 'retry-after': date }), () => at + 60_000)).toBe(0);
    expect(retryAfterOf(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterOf(headers({}))).toBeUndefined();
  });

  test('a run shows the wait for a loading model as `retry` events, then carries on', async () => {
    await using model = await startMockModel({ script: [loading, loading, { text: 'Ready now.' }] });
    const runtimeDir = await mkdtemp(join(tmpdir(), 'keel-home-'));
    const repo = await createTempGitRepo({ files: {} });
    // Waits of a millisecond, for at most ten: eleven attempts.
    const retry = { loadingDelayMs: 1, maxLoadingWaitMs: 10 };
    const runtime = createRuntime({
      runtimeDir,
      model: 'mock-model',
      modelBaseUrl: model.url,
      retry,
      env: {},
    });
    try {
      const events: RuntimeEvent[] = [];
      const result = await runtime.run(
        { prompt: 'hi', workdir: repo.path },
        { onEvent: (event) => void events.push(event) },
      );
      expect(result.output).toBe('Ready now.');
      const retries = events.filter((event) => event.type === 'retry');
      expect(retries).toMatchObject([
        { attempt: 2, max_attempts: 11 },
        { attempt: 3, max_attempts: 11 },
      ]);
      expect(retries[0]!.type === 'retry' && retries[0]!.error).toContain('still loading the model');
    } finally {
      await runtime.close();
      await repo.remove();
      await rm(runtimeDir, { recursive: true, force: true });
    }
  });
});
