import { expect, test, vi } from 'vitest';
import { EventManager, type RuntimeEvent } from '../../src/events/index.ts';
import type { ExecutionOutcome } from '../../src/runs/index.ts';
import { followRun } from '../../src/runtime/follow-run.ts';
import type { Run, RunStore } from '../../src/store/index.ts';

// Issue #44: a run's result holds every tool output. A run executed here ended with its record in hand,
// yet followRun read it once more from the store (a copy of the result, megabytes on a long run) to
// return it.

test('a run driven to its end here returns the result its execution stored, without reading it again', async () => {
  const queued = { id: 'run_1', status: 'queued', last_seq: 0, result: null } as unknown as Run;
  const result = {
    output: 'Read them all.',
    tool_traces: [{ tool_name: 'read_file', args: {}, result: 'a' }],
  };
  const ended = { ...queued, status: 'succeeded', last_seq: 1, result } as unknown as Run;
  // What reading the run again would give: an equal result, but a copy of it.
  const stored = { ...ended, result: structuredClone(result) } as Run;
  const getRun = vi.fn(async () => (getRun.mock.calls.length <= 2 ? queued : stored));
  const store = { getRun, listEvents: async () => [] } as unknown as RunStore;
  const delivered: number[] = [];
  const answer = await followRun(
    'run_1',
    {
      store,
      events: new EventManager(),
      cancel: async () => queued,
      drive: async (_runId, options): Promise<ExecutionOutcome> => {
        await options.onEvent?.({ type: 'done', session_id: 's' } as unknown as RuntimeEvent, 1);
        return { run: ended };
      },
    },
    { onEvent: (_event, seq) => void delivered.push(seq) },
  );
  expect(delivered).toEqual([1]);
  expect(answer).toBe(result);
  expect(getRun).toHaveBeenCalledTimes(2);
});
