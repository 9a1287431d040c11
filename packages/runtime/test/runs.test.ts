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
    const run = await h.runtime.runs.get(result!.run_id);
    expect(run).toMatchObject({
      status: 'succeeded',
      session_id: result!.session_id,
      prompt: 'look around',
      error: null,
    });
    expect(run.last_seq).toBe(events.length);
    const stored = await h.runtime.runs.events(run.id);
    expect(stored.map((record) => record.seq)).toEqual(events.map((_, index) => index + 1));
    expect(stored.map((record) => record.event)).toEqual(events);
    expect(stored.every((record) => record.id.startsWith('evt_'))).toBe(true);

    // Resuming from a cursor gives exactly what came after it.
    const after = await h.runtime.runs.events(run.id, { after: 2 });
    expect(after.map((record) => record.seq)).toEqual(stored.slice(2).map((record) => record.seq));
    expect((await h.runtime.runs.list()).map((listed) => listed.id)).toEqual([run.id]);
  });

  test('a failed run keeps its status and error', async () => {
    await using h = await startHarness([{ error: { status: 401 } }]);
    const { events } = await h.collect({ prompt: 'hi' });
    const [run] = await h.runtime.runs.list();
    expect(run).toMatchObject({ status: 'failed', error: { code: 'AUTHENTICATION_FAILED' } });
    expect((await h.runtime.runs.events(run!.id)).map((record) => record.event)).toEqual(events);
    expect(await h.runtime.runs.list({ status: 'succeeded' })).toEqual([]);
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
              runId = 'pending';
              void (async () => {
                runId = (await other.runs.list({ status: 'running' }))[0]?.id;
                await other.cancelRun(runId!);
              })();
            }
          },
        },
      );
      await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(events.at(-1)?.type).toBe('cancelled');
      expect((await other.runs.get(runId!)).status).toBe('cancelled');
      const steps = await other.runs.steps(runId!);
      expect(steps.map((step) => `${step.kind}:${step.status}`)).toEqual(['model_turn:cancelled']);
      // Cancel applies to any run: one that has ended is answered unchanged.
      const again = await other.cancelRun(runId!);
      expect(again).toMatchObject({ id: runId, status: 'cancelled' });
      expect(again.updated_at).toBe((await other.runs.get(runId!)).updated_at);
      const missing = await other.cancelRun('run_missing').catch((error: unknown) => error);
      expect(KeelError.is(missing) && missing.code).toBe('RUN_NOT_FOUND');
    } finally {
      await other.close();
    }
  });
});
