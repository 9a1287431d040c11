import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ChatRequestBody, eventually, type ScriptedReply, waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import type { Runtime, SubAgent } from '../../src/index.ts';
import { startHarness } from '../harness.ts';

const offset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

/** A sub-agent whose model takes a minute to answer: it stays running until it is killed. */
const slow = (task: string): ScriptedReply => ({
  when: { lastMessageIncludes: task },
  delayMs: 60_000,
  text: 'late',
});
const spawn = (task: string, type?: string) => ({
  name: 'spawn_agent',
  arguments: { task, ...(type ? { type } : {}) },
});

const toolNames = (body: ChatRequestBody | undefined) =>
  (body?.tools ?? []).map((tool) => tool.function?.name);
const lastText = (body: ChatRequestBody) => String(body.messages?.at(-1)?.content ?? '');

async function statusOf(runtime: Runtime, agentId: string, status: SubAgent['status']): Promise<SubAgent> {
  return eventually(
    async () => {
      const agent = await runtime.agents.get(agentId);
      return agent.status === status && agent;
    },
    { timeoutMs: 15_000, intervalMs: 20, what: `sub-agent ${agentId} to be ${status}` },
  );
}

describe('sub-agents through the agent loop', () => {
  test('a run spawns five, is refused the sixth, parks on one holding no worker, reads its answer and kills another', async () => {
    await using h = await startHarness([
      {
        when: { lastMessageIncludes: 'lead the team' },
        toolCalls: [
          spawn('slow-1'),
          spawn('slow-2', 'research'),
          spawn('slow-3', 'code'),
          spawn('slow-4'),
          spawn('quick task: open the gate', 'test'),
          spawn('one too many'),
          { name: 'exec_command', arguments: { command: waitForFileCommand('go', 'parent-gate-open') } },
        ],
      },
      slow('slow-1'),
      slow('slow-2'),
      slow('slow-3'),
      slow('slow-4'),
      {
        when: { lastMessageIncludes: 'quick task' },
        toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('go5', 'five-open') } }],
      },
      { when: { lastRole: 'tool', lastMessageIncludes: 'five-open' }, text: 'The answer is 42.' },
    ]);
    const parent = await h.runtime.start({ prompt: 'lead the team', workdir: h.workdir });

    // Held in its first tool batch by the gate: five sub-agents spawned, the sixth refused.
    const agents = await eventually(
      async () => {
        const list = await h.runtime.agents.list(parent.id);
        return list.length === 5 && list;
      },
      { timeoutMs: 15_000, what: 'five sub-agents' },
    );
    const byTask = (task: string) => agents.find((agent) => agent.task.startsWith(task))!;
    const quick = byTask('quick task');
    expect(quick).toMatchObject({ type: 'test', parent_run_id: parent.id, timeout: 300, error: null });
    expect(quick.created_at).toMatch(offset);
    await eventually(async () =>
      (await h.runtime.runs.events(parent.id)).some(
        (record) => record.event.type === 'tool_result' && String(record.event.result).includes('limit is 5'),
      ),
    );

    h.model.push(
      {
        when: { lastRole: 'tool', lastMessageIncludes: 'parent-gate-open' },
        toolCalls: [{ name: 'get_agent_status', arguments: { agent_id: quick.agent_id, wait: true } }],
      },
      {
        when: { lastRole: 'tool', lastMessageIncludes: 'The answer is 42' },
        toolCalls: [{ name: 'kill_agent', arguments: { agent_id: byTask('slow-1').agent_id } }],
      },
      { when: { lastRole: 'tool', lastMessageIncludes: '"killed": true' }, text: 'The team is done: 42.' },
    );
    await writeFile(join(h.workdir, 'go'), '');

    // It waits for the quick one as it would for an approval: `waiting`, no lease, nothing to approve.
    const parked = await eventually(
      async () => {
        const run = await h.runtime.runs.get(parent.id);
        return run.status === 'waiting' && run;
      },
      { timeoutMs: 15_000, what: 'the parent to park' },
    );
    expect(parked.lease_owner).toBeNull();
    expect(await h.runtime.approvals.list({ run_id: parent.id, status: 'pending' })).toEqual([]);
    expect((await h.runtime.runs.steps(parent.id)).at(-1)).toMatchObject({
      kind: 'tool_batch',
      status: 'waiting',
      detail: { waiting_for: { agent_id: quick.agent_id } },
    });
    expect((await h.runtime.agents.get(quick.agent_id)).status).toBe('running');

    await writeFile(join(h.workdir, 'go5'), '');
    const final = await eventually(
      async () => {
        const run = await h.runtime.runs.get(parent.id);
        return ['succeeded', 'failed'].includes(run.status) && run;
      },
      { timeoutMs: 15_000, what: 'the parent to end' },
    );
    expect(final.error ?? null, JSON.stringify(final.error)).toBeNull();
    expect(final.status).toBe('succeeded');
    expect((final.result as { output: string }).output).toBe('The team is done: 42.');

    const answered = await h.runtime.agents.get(quick.agent_id);
    expect(answered).toMatchObject({ status: 'completed', output: 'The answer is 42.', error: null });
    expect(answered.completed_at).toMatch(offset);
    expect(await h.runtime.agents.get(byTask('slow-1').agent_id)).toMatchObject({
      status: 'killed',
      output: '',
      error: 'The sub-agent was killed.',
    });
    // The parent ended without them: the others are killed, since nobody will read their answers.
    for (const task of ['slow-2', 'slow-3', 'slow-4']) {
      const killed = await statusOf(h.runtime, byTask(task).agent_id, 'killed');
      expect(killed).toMatchObject({ output: '', error: 'The sub-agent was killed.' });
    }

    // What the model saw: the refusal as a tool error, then the quick one's record after the wait.
    const parentRequests = h.model.chatRequests.filter((body) => toolNames(body).includes('spawn_agent'));
    expect(parentRequests).toHaveLength(4);
    const refusal = parentRequests[1]!.messages!.filter((message) => message.role === 'tool')[5];
    expect(String(refusal?.content)).toMatch(
      /^Error: 5 sub-agents are pending or running and the limit is 5/,
    );
    const status = JSON.parse(lastText(parentRequests[2]!)) as SubAgent;
    expect(status).toMatchObject({
      agent_id: quick.agent_id,
      status: 'completed',
      output: 'The answer is 42.',
    });

    // The test sub-agent had the test tools and prompt: it reads and runs commands, nothing else.
    const quickRequest = h.model.chatRequests.find((body) => lastText(body).startsWith('quick task'))!;
    const quickTools = toolNames(quickRequest);
    expect(quickTools).toEqual(expect.arrayContaining(['read_file', 'grep', 'exec_command']));
    for (const name of ['write_file', 'edit_file', 'question', 'spawn_agent', 'get_agent_status']) {
      expect(quickTools).not.toContain(name);
    }
    expect(String(quickRequest.messages?.[0]?.content)).toContain('You are a testing specialist');

    // The parent's log: each spawn and each end it lived to see, with gapless seqs and `done` last;
    // the wait re-ran no step (one tool_call for get_agent_status).
    const records = await h.runtime.runs.events(parent.id);
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    const types = records.map((record) => record.event.type);
    expect(types.filter((type) => type === 'agent_spawned')).toHaveLength(5);
    expect(records.filter((record) => record.event.type === 'agent_finished').map((r) => r.event)).toEqual([
      expect.objectContaining({ agent_id: quick.agent_id, status: 'completed', error: null }),
      expect.objectContaining({ agent_id: byTask('slow-1').agent_id, status: 'killed' }),
    ]);
    expect(types.at(-1)).toBe('done');
    const waits = records.filter(
      (record) => record.event.type === 'tool_call' && record.event.tool_name === 'get_agent_status',
    );
    expect(waits).toHaveLength(1);

    // Each sub-agent is a run of its own, linked to its parent: `keel runs` and the console list them.
    const children = await h.runtime.runs.list({ parent_run_id: parent.id });
    expect(children).toHaveLength(5);
    const { entries } = await h.runtime.runs.timeline(parent.id);
    const spawnedEntries = entries.filter((entry) => entry.type === 'sub_agent');
    expect(spawnedEntries).toHaveLength(5);
    expect(spawnedEntries).toContainEqual(
      expect.objectContaining({ agent_id: quick.agent_id, agent_type: 'test', status: 'succeeded' }),
    );
    expect(children.every((run) => run.agent !== null && run.parent_run_id === parent.id)).toBe(true);
  }, 60_000);
});
