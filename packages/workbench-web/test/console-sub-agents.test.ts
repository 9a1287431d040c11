// How the console shows sub-agents: a child run's label in lists and headers, and a parent's
// `agent_spawned` / `agent_finished` events as transcript blocks that link to the child run.
import type { RunAgent, RunEvent } from '@keel/protocol/runtime';
import type { RunEventEntry } from '@keel/web-client';
import { describe, expect, test } from 'vitest';
import { foldRunEvents, toolCatalogue } from '../src/console/api/run-transcript.ts';
import { agentOutcome, runLabel } from '../src/console/run-label.ts';

type Body = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'session_id'> : never) : never;
const records = (...events: Body[]): RunEventEntry[] =>
  events.map((event, index) => ({ seq: index + 1, event: { ...event, session_id: 's' } as RunEvent }));

const agent: RunAgent = {
  agent_id: 'agt_1',
  type: 'research',
  task: 'Find where the config is loaded',
  timeout_seconds: 300,
  deadline_at: '2026-11-23T10:05:00.000Z',
  spawned_at: '2026-11-23T10:00:00.000Z',
  resumes: null,
};

describe('runLabel', () => {
  test("a sub-agent's run is named by its type and task, any other run by its prompt", () => {
    expect(runLabel({ prompt: 'You are a research sub-agent. Task: …', agent })).toBe(
      '↳ research: Find where the config is loaded',
    );
    expect(runLabel({ prompt: 'Add a CHANGELOG entry', agent: null })).toBe('Add a CHANGELOG entry');
    // An older server sends no `agent` at all.
    expect(runLabel({ prompt: 'Add a CHANGELOG entry' })).toBe('Add a CHANGELOG entry');
  });

  test('how a sub-agent ended, in words', () => {
    expect(agentOutcome('completed')).toBe('finished');
    expect(agentOutcome('timeout')).toBe('timed out');
    expect(agentOutcome('killed')).toBe('killed');
    expect(agentOutcome('failed')).toBe('failed');
  });
});

describe('foldRunEvents with sub-agents', () => {
  test('a spawn and an end are blocks of their own; the end repeats the type and task of its spawn', () => {
    const items = foldRunEvents(
      records(
        { type: 'text_delta', content: 'Asking two helpers.' },
        {
          type: 'tool_call',
          tool_name: 'spawn_agent',
          tool_call_id: 'c1',
          args: { task: 'Find where the config is loaded', type: 'research' },
        },
        {
          type: 'agent_spawned',
          agent_id: 'agt_1',
          run_id: 'run_child1',
          agent_type: 'research',
          task: 'Find where the config is loaded',
        },
        {
          type: 'tool_result',
          tool_name: 'spawn_agent',
          tool_call_id: 'c1',
          result: '{"agent_id": "agt_1"}',
        },
        {
          type: 'agent_spawned',
          agent_id: 'agt_2',
          run_id: 'run_child2',
          agent_type: 'test',
          task: 'Run it',
        },
        { type: 'agent_finished', agent_id: 'agt_1', run_id: 'run_child1', status: 'completed', error: null },
        {
          type: 'agent_finished',
          agent_id: 'agt_2',
          run_id: 'run_child2',
          status: 'failed',
          error: 'exit code 1',
        },
        // An end whose spawn is not in this log (a resumed sub-agent's earlier run, say) still shows.
        { type: 'agent_finished', agent_id: 'agt_9', run_id: 'run_child9', status: 'killed', error: null },
      ),
      toolCatalogue(),
      false,
    );
    expect(items).toEqual([
      { type: 'assistant', seq: 1, content: 'Asking two helpers.', streaming: false },
      expect.objectContaining({ type: 'tool', seq: 2, name: 'spawn_agent', result: expect.anything() }),
      {
        type: 'agent',
        seq: 3,
        event: 'spawned',
        agentId: 'agt_1',
        runId: 'run_child1',
        agentType: 'research',
        task: 'Find where the config is loaded',
      },
      {
        type: 'agent',
        seq: 5,
        event: 'spawned',
        agentId: 'agt_2',
        runId: 'run_child2',
        agentType: 'test',
        task: 'Run it',
      },
      {
        type: 'agent',
        seq: 6,
        event: 'finished',
        agentId: 'agt_1',
        runId: 'run_child1',
        agentType: 'research',
        task: 'Find where the config is loaded',
        status: 'completed',
        error: null,
      },
      {
        type: 'agent',
        seq: 7,
        event: 'finished',
        agentId: 'agt_2',
        runId: 'run_child2',
        agentType: 'test',
        task: 'Run it',
        status: 'failed',
        error: 'exit code 1',
      },
      {
        type: 'agent',
        seq: 8,
        event: 'finished',
        agentId: 'agt_9',
        runId: 'run_child9',
        status: 'killed',
        error: null,
      },
    ]);
  });
});
