import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { newAgentState } from '../../src/agent/index.ts';
import { CheckpointCodec, decodeCheckpoints, isWhole } from '../../src/runs/checkpoint-codec.ts';
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

  test('a pruned history is a patch of the messages that changed; a compacted one is stored whole', () => {
    const state = withAgent();
    const agent = state.nodes.agent!.agent!;
    const codec = new CheckpointCodec();
    const stored: Checkpoint[] = [];
    for (let turn = 0; turn < 20; turn++) {
      agent.messages.push({ role: 'assistant', content: `call ${turn}` });
      agent.messages.push({
        role: 'tool',
        tool_call_id: `c${turn}`,
        content: `output ${turn} ${'x'.repeat(2000)}`,
      });
      stored.push(checkpoint(codec.encode(state), turn));
    }
    // As the context step prunes: a new array that shares every message it keeps.
    agent.messages = agent.messages.map((message, index) =>
      index === 2 || index === 4 ? { ...message, content: '[pruned]' } : message,
    );
    agent.rewrites = 1;
    agent.messages.push({ role: 'assistant', content: 'after the prune' });
    stored.push(checkpoint(codec.encode(state), 20));
    const pruned = stored.at(-1)!.state as { nodes: Record<string, { agent: Record<string, unknown> }> };
    expect(pruned.nodes.agent!.agent.messages).toEqual({
      base: 41,
      delta: [{ role: 'assistant', content: 'after the prune' }],
      patch: [
        [2, { role: 'tool', tool_call_id: 'c0', content: '[pruned]' }],
        [4, { role: 'tool', tool_call_id: 'c1', content: '[pruned]' }],
      ],
    });
    expect(JSON.stringify(pruned).length).toBeLessThan(1000);
    expect(decodeCheckpoints(stored)!.nodes.agent!.agent).toEqual(agent);
    // As compaction does: most of the history replaced by a summary.
    agent.messages = [agent.messages[0]!, { role: 'user', content: 'summary' }, agent.messages.at(-1)!];
    agent.rewrites = 2;
    stored.push(checkpoint(codec.encode(state), 21));
    const compacted = stored.at(-1)!.state as { nodes: Record<string, { agent: Record<string, unknown> }> };
    expect(compacted.nodes.agent!.agent.messages).toMatchObject({ base: 0 });
    expect(decodeCheckpoints(stored)!.nodes.agent!.agent).toEqual(agent);
    expect(decodeCheckpoints(stored.slice(0, 21))!.nodes.agent!.agent!.messages[2]!.content).toBe('[pruned]');
  });

  test('a growing run is read from its first checkpoint; a shrinking one gets whole checkpoints', () => {
    const state = withAgent();
    const agent = state.nodes.agent!.agent!;
    const codec = new CheckpointCodec();
    const stored: Checkpoint[] = [];
    const size = (each: Checkpoint) => JSON.stringify(each.state).length;
    const wholes = () => stored.flatMap((each, index) => (isWhole(each.state) ? [index] : []));
    for (let turn = 0; turn < 200; turn++) {
      agent.messages.push({
        role: 'tool',
        tool_call_id: `c${turn}`,
        content: `output ${turn} ${'y'.repeat(1000)}`,
      });
      stored.push(checkpoint(codec.encode(state), turn));
    }
    // Only growth: the chain from the first checkpoint is about the state itself, so none is rewritten.
    expect(wholes()).toEqual([0]);
    // Now compactions keep the history short while the checkpoints go on: whole ones bound the chain.
    for (let turn = 200; turn < 600; turn++) {
      if (turn % 20 === 0) {
        agent.messages = [agent.messages[0]!, { role: 'user', content: `summary up to ${turn}` }];
        agent.rewrites = (agent.rewrites ?? 0) + 1;
      }
      agent.messages.push({
        role: 'tool',
        tool_call_id: `c${turn}`,
        content: `output ${turn} ${'y'.repeat(1000)}`,
      });
      stored.push(checkpoint(codec.encode(state), turn));
    }
    const marks = wholes();
    expect(marks.length).toBeGreaterThan(2);
    // A chain never outweighs twice the state at its end by more than the slack and one checkpoint.
    for (const [i, from] of marks.entries()) {
      const to = (marks[i + 1] ?? stored.length) - 1;
      const chain = stored.slice(from, to + 1).reduce((sum, each) => sum + size(each), 0);
      const stateAtEnd = JSON.stringify(decodeCheckpoints(stored.slice(0, to + 1))).length;
      expect(chain).toBeLessThanOrEqual(2 * stateAtEnd + 64 * 1024 + Math.max(...stored.map(size)));
    }
    // And the whole ones weigh less than the other checkpoints between them.
    const total = (indexes: number[]) => indexes.reduce((sum, index) => sum + size(stored[index]!), 0);
    const others = stored.map((_, index) => index).filter((index) => !marks.includes(index));
    expect(total(marks.slice(1))).toBeLessThan(total(others));
    expect(decodeCheckpoints(stored.slice(marks.at(-1)))!.nodes.agent!.agent).toEqual(agent);
    expect(decodeCheckpoints(stored)!.nodes.agent!.agent).toEqual(agent);
    // A codec that loaded a chain counts its bytes: a long chain for a small state is due a whole one.
    const loaded = decodeCheckpoints(stored)!;
    loaded.nodes.agent!.agent!.messages.push({ role: 'assistant', content: 'resumed' });
    const short = new CheckpointCodec();
    short.remember(decodeCheckpoints(stored)!, [10_000, 20_000]);
    expect(isWhole(short.encode(loaded))).toBe(false);
    const long = new CheckpointCodec();
    long.remember(decodeCheckpoints(stored)!, [10_000, 200_000]);
    expect(isWhole(long.encode(loaded))).toBe(true);
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
    // such step holds only the messages it changed; every other one holds what its step added.
    const steps = await h.runtime.runs.steps(result.run_id);
    expect(steps.filter((step) => step.kind === 'context').length).toBeGreaterThan(0);
    const sizes = checkpoints.map((each) => JSON.stringify(each.state).length);
    expect(Math.max(...sizes.slice(1))).toBeLessThan(20_000);
    // Folding every checkpoint gives the whole conversation back (the finished agent keeps its traces).
    const state = decodeCheckpoints(checkpoints)!;
    expect(state.nodes.agent!.agent!.traces).toHaveLength(turns);
    expect(result.tool_traces).toHaveLength(turns);
  });

  test('a long run resumed after an approval continues from its latest whole checkpoint, losing nothing', async () => {
    // Small outputs: the checkpoints' own fields outweigh the state's growth, so whole ones come.
    const reads = 100;
    await using h = await startHarness(
      [
        ...Array.from({ length: reads }, () => ({
          toolCalls: [{ name: 'read_file', arguments: { path: 'small.txt' } }],
        })),
        { toolCalls: [{ name: 'write_file', arguments: { path: 'note.txt', content: 'read it\n' } }] },
        { when: { lastRole: 'tool' }, text: 'Wrote the note.' },
      ],
      { 'small.txt': 'a line\n' },
      { requireApproval: ['write_file'] },
    );
    await writeFile(
      join(h.runtimeDir, 'config.json'),
      JSON.stringify({ circuit_breaker: { enabled: false } }),
    );
    const run = await h.runtime.start({ prompt: 'read', workdir: h.workdir }, { execute: false });
    const waiting = await h.runtime.drive(run.id, {
      onEvent: async (event) => {
        if (event.type === 'interaction_request') await h.runtime.approvals.approve(event.request_id);
      },
    });
    expect(waiting?.run.status).toBe('queued');
    // The state it resumes from is rebuilt from a whole checkpoint past the first (a chain of a few).
    const before = await h.runtime.runs.checkpoints(run.id);
    const latestWhole = before.findLastIndex((each) => isWhole(each.state));
    expect(latestWhole).toBeGreaterThan(0);
    expect(before.length - latestWhole).toBeLessThan(before.length / 2);
    const done = (await h.runtime.drive(run.id))!;
    expect(done.run.status).toBe('succeeded');
    expect(done.run.result).toMatchObject({ output: 'Wrote the note.' });
    expect((done.run.result as { tool_traces: unknown[] }).tool_traces).toHaveLength(reads + 1);
    // The model saw the whole conversation after the resume: system, task, and every call with its output.
    expect(h.model.chatRequests.at(-1)!.messages).toHaveLength(2 + 2 * (reads + 1));
  });
});
