// `runtime.follow`: the one way every surface follows a run to its end (the CLI, the workbench's Keel
// runner): every event once from a cursor, the run executed here when queued, the final run answered.
import { describe, expect, test } from 'vitest';
import type { RuntimeEvent } from '../../src/index.ts';
import { startHarness } from '../harness.ts';

describe('runtime.follow', () => {
  test('executes a queued run here and delivers every event once, in order, from the cursor', async () => {
    await using h = await startHarness([
      { toolCalls: [{ name: 'list_directory', arguments: {} }] },
      { when: { lastRole: 'tool' }, text: 'Listed.' },
    ]);
    const run = await h.runtime.start({ prompt: 'list', workdir: h.workdir }, { execute: false });
    const seen: { seq: number; type: string }[] = [];
    const final = await h.runtime.follow(run.id, {
      after: 0,
      onEvent: (event: RuntimeEvent, seq: number) => void seen.push({ seq, type: event.type }),
    });
    expect(final).toMatchObject({ id: run.id, status: 'succeeded' });
    expect(seen.map((each) => each.seq)).toEqual(seen.map((_, index) => index + 1));
    expect(seen.at(-1)?.type).toBe('done');
    // Followed again from a cursor: only what came after it, for a run that is already final.
    const again: number[] = [];
    await h.runtime.follow(run.id, {
      after: seen.length - 2,
      onEvent: (_event, seq) => void again.push(seq),
    });
    expect(again).toEqual([seen.length - 1, seen.length]);
  });

  test('a failed run is answered as failed, not thrown; an unknown one is RUN_NOT_FOUND', async () => {
    await using h = await startHarness([{ error: { status: 400, message: 'bad request from the model' } }]);
    const run = await h.runtime.start({ prompt: 'fail', workdir: h.workdir }, { execute: false });
    const final = await h.runtime.follow(run.id, { after: 0 });
    expect(final.status).toBe('failed');
    expect(final.error?.message).toContain('bad request from the model');
    await expect(h.runtime.follow('run_nope')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
  });

  test('the signal cancels the run; following goes on until it is final, and answers it cancelled', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await using h = await startHarness([{ text: 'too late', until: held }]);
    const run = await h.runtime.start({ prompt: 'wait', workdir: h.workdir }, { execute: false });
    const abort = new AbortController();
    const following = h.runtime.follow(run.id, { after: 0, signal: abort.signal });
    await h.model.waitForRequests(1);
    abort.abort();
    expect((await following).status).toBe('cancelled');
    release();
  });
});
