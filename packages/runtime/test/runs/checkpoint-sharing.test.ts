import { afterEach, describe, expect, test, vi } from 'vitest';
import { newAgentState } from '../../src/agent/index.ts';
import { CheckpointCodec, decodeCheckpoints, isWhole } from '../../src/runs/checkpoint-codec.ts';
import type { Checkpoint, JsonValue } from '../../src/store/index.ts';
import { newSchedulerState, type SchedulerState } from '../../src/workflow/index.ts';

// Issue #44: a checkpoint used to be the whole stored state written out and parsed back, so every part of
// it was a copy; a whole one (every tool output of the run, in the traces) made several copies of
// megabytes, which stayed in the old generation until the next full GC and raised a long run's peak RSS.

interface StoredList {
  base: number;
  delta: unknown[];
}
type Stored = {
  nodes: Record<string, { agent: Record<string, unknown> & Record<'messages' | 'traces', StoredList> }>;
};

function withAgent(): SchedulerState {
  const state = newSchedulerState();
  state.nodes.agent = {
    status: 'running',
    attempts: 1,
    agent: newAgentState([{ role: 'user', content: 'hi' }]),
  };
  return state;
}

/** Reads a file `steps` times: the conversation and the traces each get its output. */
function read(state: SchedulerState, steps: number): void {
  const agent = state.nodes.agent!.agent!;
  const first = agent.traces.length;
  for (let step = first; step < first + steps; step++) {
    const output = `content of file ${step}\n${'line of text\n'.repeat(150)}`;
    agent.messages.push({ role: 'tool', tool_call_id: `c${step}`, content: output });
    agent.traces.push({ tool_name: 'read_file', args: { path: `f${step}.txt` }, result: output });
  }
}

const checkpoint = (state: JsonValue, index: number): Checkpoint => ({
  id: `chk_${index}`,
  run_id: 'run_x',
  step_id: null,
  seq: index,
  state,
  created_at: '',
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('checkpoints share the conversation instead of copying it', () => {
  test('a checkpoint holds the messages and traces themselves; what changes in place is copied', () => {
    const state = withAgent();
    const agent = state.nodes.agent!.agent!;
    const codec = new CheckpointCodec();
    read(state, 3);
    const first = codec.encode(state) as unknown as Stored;
    const stored = first.nodes.agent!.agent;
    expect(stored.messages.delta.at(-1)).toBe(agent.messages.at(-1));
    expect(stored.traces.delta[2]).toBe(agent.traces[2]);
    // The counters and the pending calls change in place as the run goes: the checkpoint keeps them as
    // they were when it was taken.
    agent.usage.input_tokens += 100;
    agent.errors.push('a tool failed');
    agent.pending = { calls: [{ id: 'c9', name: 'read_file', arguments: '{}' }], next: 0 };
    expect(stored.usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect(stored.errors).toEqual([]);
    expect(stored.pending).toBeNull();
    // The next one holds what the step added, and the two fold back into the state.
    read(state, 1);
    const second = codec.encode(state) as unknown as Stored;
    expect(second.nodes.agent!.agent.traces).toEqual({ base: 3, delta: [agent.traces[3]] });
    expect(second.nodes.agent!.agent.traces.delta[0]).toBe(agent.traces[3]);
    const folded = decodeCheckpoints([checkpoint(first as never, 1), checkpoint(second as never, 2)])!;
    expect(folded.nodes.agent!.agent).toEqual(agent);
  });

  test('a whole checkpoint of a long run does not serialise its traces or its conversation to be made', () => {
    const state = withAgent();
    const codec = new CheckpointCodec();
    read(state, 200);
    // Loaded from a chain far longer than the state: the next checkpoint is due whole.
    codec.remember(state, [10 * 1024 * 1024]);
    read(state, 1);
    const tracesBytes = JSON.stringify(state.nodes.agent!.agent!.traces).length;
    const stringify = vi.spyOn(JSON, 'stringify');
    const parse = vi.spyOn(JSON, 'parse');
    const stored = codec.encode(state);
    const serialised = stringify.mock.results.reduce(
      (sum, each) => sum + (typeof each.value === 'string' ? each.value.length : 0),
      0,
    );
    const parsed = parse.mock.calls.reduce((sum, [text]) => sum + String(text).length, 0);
    vi.restoreAllMocks();
    expect(isWhole(stored)).toBe(true);
    // What it serialises is what the step added and the state's counters: a few kB, not 200 outputs.
    expect(serialised).toBeLessThan(tracesBytes / 20);
    expect(parsed).toBeLessThan(tracesBytes / 20);
    expect(decodeCheckpoints([checkpoint(stored, 1)])!.nodes.agent!.agent).toEqual(state.nodes.agent!.agent);
  });
});
