import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { newAgentState } from '../../src/agent/index.ts';
import { CheckpointCodec, decodeCheckpoints } from '../../src/runs/checkpoint-codec.ts';
import type { Checkpoint, JsonValue } from '../../src/store/index.ts';
import { newSchedulerState, type SchedulerState } from '../../src/workflow/index.ts';
import { startHarness } from '../harness.ts';

function checkpoint(state: JsonValue, index: number): Checkpoint {
  return { id: `chk_${index}`, run_id: 'run_x', step_id: null, seq: index, state, created_at: '' };
}

function withAgent(): SchedulerState {
  const state = newSchedulerState();
  state.nodes.agent = {
    status: 'running',
    attempts: 1,
    agent: newAgentState([{ role: 'user', content: 'hi' }]),
  };
  return state;
}

describe('checkpoint deltas', () => {
  test('each checkpoint stores only what the conversation gained, and folding rebuilds it', () => {
    const state = withAgent();
    const agent = state.nodes.agent!.agent!;
    const codec = new CheckpointCodec();
    const stored: Checkpoint[] = [];
    for (let turn = 0; turn < 50; turn++) {
      agent.messages.push({ role: 'assistant', content: `turn ${turn} ${'x'.repeat(500)}` });
      agent.traces.push({ tool_name: 'read_file', args: { turn }, result: 'ok' });
      agent.thinking += `thought ${turn}. `;
      stored.push(checkpoint(codec.encode(state), turn));
    }
    // The last checkpoint is no bigger than the first: O(turns) in all, not O(turns²).
    const sizes = stored.map((each) => JSON.stringify(each.state).length);
    expect(sizes.at(-1)!).toBeLessThan(sizes[0]! + 100);
    const rebuilt = decodeCheckpoints(stored)!;
    expect(rebuilt.nodes.agent!.agent).toEqual(agent);
    // Up to an earlier checkpoint (a fork) gives the state as it was then.
    const early = decodeCheckpoints(stored.slice(0, 10))!;
    expect(early.nodes.agent!.agent!.messages).toHaveLength(11);
    expect(early.nodes.agent!.agent!.thinking).toBe(
      agent.thinking.slice(0, early.nodes.agent!.agent!.thinking.length),
    );
  });

  test('a new conversation (a retried node) starts from scratch; a broken chain is a clear error', () => {
    const state = withAgent();
    const codec = new CheckpointCodec();
    const first = checkpoint(codec.encode(state), 1);
    state.nodes.agent!.agent!.messages.push({ role: 'assistant', content: 'a' });
    const second = checkpoint(codec.encode(state), 2);
    state.nodes.agent!.agent = newAgentState([{ role: 'user', content: 'again' }]);
    const third = checkpoint(codec.encode(state), 3);
    expect(decodeCheckpoints([first, second, third])!.nodes.agent!.agent!.messages).toEqual([
      { role: 'user', content: 'again' },
    ]);
    expect(() => decodeCheckpoints([second])).toThrow(
      /continues a conversation that the checkpoints before it/,
    );
    expect(decodeCheckpoints([])).toBeNull();
  });

  test('a rewritten history is stored whole, the traces still as deltas, and folding gives it back', () => {
    const state = withAgent();
    const agent = state.nodes.agent!.agent!;
    const codec = new CheckpointCodec();
    const stored: Checkpoint[] = [];
    for (let turn = 0; turn < 3; turn++) {
      agent.messages.push({ role: 'tool', tool_call_id: `c${turn}`, content: `output ${turn}` });
      agent.traces.push({ tool_name: 'read_file', args: { turn }, result: `output ${turn}` });
      stored.push(checkpoint(codec.encode(state), turn));
    }
    // Pruning edits messages in place: the length alone would hide it.
    agent.messages[1] = { role: 'tool', tool_call_id: 'c0', content: '[pruned]' };
    agent.rewrites = 1;
    stored.push(checkpoint(codec.encode(state), 3));
    const last = stored.at(-1)!.state as { nodes: Record<string, { agent: Record<string, unknown> }> };
    expect(last.nodes.agent!.agent.messages).toMatchObject({ base: 0 });
    expect(last.nodes.agent!.agent.traces).toEqual({ base: 3, delta: [] });
    // Growth after the rewrite is a delta again.
    agent.messages.push({ role: 'assistant', content: 'done' });
    stored.push(checkpoint(codec.encode(state), 4));
    const grown = stored.at(-1)!.state as { nodes: Record<string, { agent: Record<string, unknown> }> };
    expect(grown.nodes.agent!.agent.messages).toMatchObject({ base: 4 });
    expect(decodeCheckpoints(stored)!.nodes.agent!.agent).toEqual(agent);
    expect(decodeCheckpoints(stored.slice(0, 4))!.nodes.agent!.agent!.messages[1]!.content).toBe('[pruned]');
    expect(decodeCheckpoints(stored.slice(0, 3))!.nodes.agent!.agent!.messages[1]!.content).toBe('output 0');
  });

  test('a long run keeps its checkpoints small, and folding them gives the conversation back', async () => {
    const turns = 30;
    await using h = await startHarness(
      [
        ...Array.from({ length: turns }, () => ({
          toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt' } }],
        })),
        { text: 'Read it many times.' },
      ],
      { 'big.txt': 'line of text\n'.repeat(200) },
    );
    // Reading one file again and again is what the breaker's loop check stops: off for this test.
    await writeFile(
      join(h.runtimeDir, 'config.json'),
      JSON.stringify({ circuit_breaker: { enabled: false } }),
    );
    const result = await h.runtime.run({ prompt: 'read', workdir: h.workdir });
    const checkpoints = await h.runtime.runs.checkpoints(result.run_id);
    // 30 outputs outgrow the context budget: pruning rewrites the history, and the checkpoint after each
    // such step holds it whole; every other one holds what its step added.
    const steps = await h.runtime.runs.steps(result.run_id);
    const rewrites = new Set(steps.filter((step) => step.kind === 'context').map((step) => step.id));
    expect(rewrites.size).toBeGreaterThan(0);
    const sizes = checkpoints
      .filter((each) => !rewrites.has(each.step_id ?? ''))
      .map((each) => JSON.stringify(each.state).length);
    expect(Math.max(...sizes.slice(1))).toBeLessThan(20_000);
    // Folding every checkpoint gives the whole conversation back (the finished agent keeps its traces).
    const state = decodeCheckpoints(checkpoints)!;
    expect(state.nodes.agent!.agent!.traces).toHaveLength(turns);
    expect(result.tool_traces).toHaveLength(turns);
  });
});
