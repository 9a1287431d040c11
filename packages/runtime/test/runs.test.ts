import { describe, expect, test } from 'vitest';
import { createRuntime, KeelError, type RuntimeEvent } from '../src/index.ts';
import { startHarness } from './harness.ts';

describe('runs in the store', () => {
  test('every delivered event was stored first, in order, with a gapless sequence', async () => {
    await using h = await startHarness([
      { toolCalls: [{ name: 'list_directory', arguments: {} }] },
      { text: 'All done here.' },
    ]);
    const { events, result } = await h.collect({ prompt: 'look around' });
    const run = h.runtime.runs.get(result!.run_id);
    expect(run).toMatchObject({
      status: 'succeeded',
      session_id: result!.session_id,
      prompt: 'look around',
      error: null,
    });
    expect(run.last_seq).toBe(events.length);
    const stored = h.runtime.runs.events(run.id);
    expect(stored.map((record) => record.seq)).toEqual(events.map((_, index) => index + 1));
    expect(stored.map((record) => record.event)).toEqual(events);
    expect(stored.every((record) => record.id.startsWith('evt_'))).toBe(true);

    // Resuming from a cursor gives exactly what came after it.
    const after = h.runtime.runs.events(run.id, { after: 2 });
    expect(after.map((record) => record.seq)).toEqual(stored.slice(2).map((record) => record.seq));
    expect(h.runtime.runs.list().map((listed) => listed.id)).toEqual([run.id]);
  });

  test('a failed run keeps its status and error', async () => {
    await using h = await startHarness([{ error: { status: 401 } }]);
    const { events } = await h.collect({ prompt: 'hi' });
    const [run] = h.runtime.runs.list();
    expect(run).toMatchObject({ status: 'failed', error: { code: 'AUTHENTICATION_FAILED' } });
    expect(h.runtime.runs.events(run!.id).map((record) => record.event)).toEqual(events);
    expect(h.runtime.runs.list({ status: 'succeeded' })).toEqual([]);
  });

  test('a second runtime on the same store (another process) cancels a running run', async () => {
    await using h = await startHarness([{ text: 'word '.repeat(400), chunkDelayMs: 20 }]);
    const other = createRuntime({ runtimeDir: h.runtimeDir, env: {} });
    try {
      const events: RuntimeEvent[] = [];
      let runId: string | undefined;
      const run = h.runtime.run(
        { prompt: 'talk', workdir: h.workdir },
        {
          onEvent: (event) => {
            events.push(event);
            if (event.type === 'text_delta' && !runId) {
              runId = other.runs.list({ status: 'running' })[0]?.id;
              other.cancelRun(runId!);
            }
          },
        },
      );
      await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(events.at(-1)?.type).toBe('cancelled');
      expect(other.runs.get(runId!).status).toBe('cancelled');
      // Cancelling what has ended is refused with a clear error.
      expect(() => other.cancelRun(runId!)).toThrow(
        /is cancelled; cancel applies only to a run that has not ended/,
      );
      const missing = (() => {
        try {
          other.cancelRun('run_missing');
        } catch (error) {
          return error;
        }
      })();
      expect(KeelError.is(missing) && missing.code).toBe('RUN_NOT_FOUND');
    } finally {
      other.close();
    }
  });
});
