import { describe, expect, test } from 'vitest';
import type { ExecutionOutcome, Run } from '../src/index.ts';
import { startHarness } from './harness.ts';

describe('runtime.work()', () => {
  test('takes queued runs oldest first and reports each claim, event and outcome', async () => {
    await using h = await startHarness([{ text: 'first' }, { text: 'second' }]);
    const first = await h.runtime.start({ prompt: 'one', workdir: h.workdir }, { execute: false });
    const second = await h.runtime.start({ prompt: 'two', workdir: h.workdir }, { execute: false });
    const stop = new AbortController();
    const claimed: string[] = [];
    const events: string[] = [];
    const outcomes: ExecutionOutcome[] = [];
    await h.runtime.work({
      stop: stop.signal,
      idleMs: 10,
      onClaim: (run: Run) => void claimed.push(run.id),
      onEvent: (event, _seq, run) => void events.push(`${run.id}:${event.type}`),
      onOutcome: (outcome) => {
        outcomes.push(outcome);
        if (outcomes.length === 2) stop.abort();
      },
    });
    expect(claimed).toEqual([first.id, second.id]);
    expect(outcomes.map((outcome) => [outcome.run.id, outcome.run.status])).toEqual([
      [first.id, 'succeeded'],
      [second.id, 'succeeded'],
    ]);
    expect(events).toContain(`${first.id}:done`);
    expect(events.at(-1)).toBe(`${second.id}:done`);
  });

  test('stop lets the run in hand finish; signal cancels it', async () => {
    await using h = await startHarness([
      { text: 'slow answer', chunkDelayMs: 30 },
      { text: 'never finished '.repeat(50), chunkDelayMs: 30 },
    ]);
    const graceful = await h.runtime.start({ prompt: 'one', workdir: h.workdir }, { execute: false });
    const stop = new AbortController();
    const outcomes: ExecutionOutcome[] = [];
    await h.runtime.work({
      stop: stop.signal,
      idleMs: 10,
      onClaim: () => stop.abort(),
      onOutcome: (outcome) => void outcomes.push(outcome),
    });
    expect(outcomes.map((outcome) => [outcome.run.id, outcome.run.status])).toEqual([
      [graceful.id, 'succeeded'],
    ]);

    const cancelled = await h.runtime.start({ prompt: 'two', workdir: h.workdir }, { execute: false });
    const cancel = new AbortController();
    outcomes.length = 0;
    await h.runtime.work({
      signal: cancel.signal,
      idleMs: 10,
      onEvent: (event) => {
        if (event.type === 'text_delta') cancel.abort();
      },
      onOutcome: (outcome) => void outcomes.push(outcome),
    });
    expect(outcomes.map((outcome) => [outcome.run.id, outcome.run.status])).toEqual([
      [cancelled.id, 'cancelled'],
    ]);
  });
});
