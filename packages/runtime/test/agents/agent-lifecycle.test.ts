import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ChatRequestBody, eventually, waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import type { Run, RunStore, Runtime, SubAgent } from '../../src/index.ts';
import { createRuntime, StoreError } from '../../src/index.ts';
import { newId } from '../../src/store/index.ts';
import { fakeClock } from '../fake-clock.ts';
import { startHarness } from '../harness.ts';

const offset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

async function until(runtime: Runtime, agentId: string, status: SubAgent['status']): Promise<SubAgent> {
  return eventually(
    async () => {
      const agent = await runtime.agents.get(agentId);
      return agent.status === status && agent;
    },
    { timeoutMs: 15_000, intervalMs: 20, what: `sub-agent ${agentId} to be ${status}` },
  );
}

/** A sub-agent run written straight to the store, as a process that died before starting it would leave it. */
async function strandedAgentRun(
  store: RunStore,
  workdir: string,
  deadline: Date,
  parentRunId: string | null = null,
): Promise<Run> {
  const agentId = newId('agt');
  return store.createRun({
    session_id: null,
    workdir,
    prompt: 'stranded',
    workflow: null,
    input: { prompt: 'stranded', workdir },
    parent_run_id: parentRunId,
    agent: {
      agent_id: agentId,
      type: 'generic',
      task: 'stranded',
      timeout_seconds: 1,
      deadline_at: deadline.toISOString(),
      spawned_at: new Date(deadline.getTime() - 1000).toISOString(),
      resumes: null,
    },
  });
}

const lastText = (body: ChatRequestBody) => String(body.messages?.at(-1)?.content ?? '');

describe('sub-agent lifecycle', () => {
  test('a sub-agent still working at its timeout is stopped by its worker and ends timeout', async () => {
    const clock = fakeClock();
    // A lease longer than the clock's jump: the worker, not a sweep of orphans, must be what stops it.
    await using h = await startHarness(
      [{ when: { lastMessageIncludes: 'ponder' }, delayMs: 60_000, text: 'late' }],
      {},
      { now: clock.now, leaseMs: 3_600_000 },
    );
    const spawned = await h.runtime.agents.spawn({
      task: 'ponder forever',
      timeout: 600,
      workdir: h.workdir,
    });
    expect(spawned).toMatchObject({ status: 'pending', timeout: 600, parent_run_id: null });
    expect(spawned).not.toHaveProperty('output');
    expect(spawned.completed_at).toBeNull();
    await until(h.runtime, spawned.agent_id, 'running');
    await eventually(() => h.model.chatRequests.length > 0, { what: 'the sub-agent to ask the model' });
    clock.advance(601_000);
    const ended = await until(h.runtime, spawned.agent_id, 'timeout');
    expect(ended).toMatchObject({ output: '', error: 'The sub-agent ran past its timeout of 600 s.' });
    expect(ended.completed_at).toMatch(offset);
    const run = await h.runtime.runs.get(ended.run_id);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'TIMEOUT' } });
    const events = await h.runtime.runs.events(run.id);
    expect(events.at(-1)?.event).toMatchObject({ type: 'error', error: { code: 'TIMEOUT' } });
    // Timed out is final for kill, and resumable.
    expect(await h.runtime.agents.kill(spawned.agent_id)).toEqual({
      agent_id: spawned.agent_id,
      killed: false,
      status: 'timeout',
    });
  }, 30_000);

  test('sub-agents past their deadline that no worker holds end timeout when anyone looks', async () => {
    const clock = fakeClock();
    await using h = await startHarness([], {}, { now: clock.now });
    const store = await h.runtime.store();
    const past = new Date(clock.now().getTime() - 1000);
    const pending = await strandedAgentRun(store, h.workdir, past);
    const orphan = await strandedAgentRun(store, h.workdir, past);
    // Claimed by a worker on another host whose lease then ran out: a crashed process's run.
    await store.claimRun(orphan.id, { owner: 'gone:1:x', leaseMs: 1000 });
    const notYet = await strandedAgentRun(store, h.workdir, new Date(clock.now().getTime() + 60_000));
    clock.advance(2_000);

    expect(await h.runtime.agents.get(pending.agent!.agent_id)).toMatchObject({
      status: 'timeout',
      error: 'The sub-agent ran past its timeout of 1 s.',
    });
    expect((await h.runtime.agents.get(orphan.agent!.agent_id)).status).toBe('timeout');
    expect((await h.runtime.agents.get(notYet.agent!.agent_id)).status).toBe('pending');
    expect(await store.getRun(orphan.id)).toMatchObject({ status: 'failed', lease_owner: null });
  });

  test('get, kill and resume refuse what does not apply, in the error shape', async () => {
    await using h = await startHarness([
      { when: { lastMessageIncludes: 'busy' }, delayMs: 60_000, text: 'late' },
    ]);
    await expect(h.runtime.agents.get('agt_missing')).rejects.toMatchObject({ code: 'AGENT_NOT_FOUND' });
    await expect(h.runtime.agents.kill('agt_missing')).rejects.toMatchObject({ code: 'AGENT_NOT_FOUND' });
    await expect(h.runtime.agents.resume('agt_missing')).rejects.toMatchObject({ code: 'AGENT_NOT_FOUND' });
    for (const bad of [
      {},
      { task: '' },
      { task: '  ' },
      { task: 'x', type: 'boss' },
      { task: 'x', timeout: 0 },
    ]) {
      await expect(h.runtime.agents.spawn(bad as never)).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    }
    await expect(
      h.runtime.agents.spawn({ task: 'x', workdir: join(h.workdir, 'missing') }),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMS' });

    const busy = await h.runtime.agents.spawn({ task: 'busy work', workdir: h.workdir });
    await until(h.runtime, busy.agent_id, 'running');
    await expect(h.runtime.agents.resume(busy.agent_id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'running' },
    });
    expect(await h.runtime.agents.kill(busy.agent_id)).toEqual({
      agent_id: busy.agent_id,
      killed: true,
      status: 'killed',
    });
    await expect(h.runtime.agents.resume(busy.agent_id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'killed' },
    });
    // Another process's view: the same record from the store.
    const other = h.other();
    try {
      expect(await other.agents.get(busy.agent_id)).toMatchObject({ status: 'killed', run_id: busy.run_id });
    } finally {
      await other.close();
    }
  }, 30_000);

  test('resume_agent starts a failed sub-agent again, and its new run sees the previous error', async () => {
    await using h = await startHarness([
      {
        when: { lastMessageIncludes: 'plan the release' },
        toolCalls: [
          { name: 'spawn_agent', arguments: { task: 'flaky task: list the changes', type: 'research' } },
          { name: 'exec_command', arguments: { command: waitForFileCommand('go', 'gate-open') } },
        ],
      },
      // The resumed run's prompt holds the previous error; the first run's does not.
      { when: { lastMessageIncludes: 'Previous error' }, text: 'Recovered: three changes.' },
      { when: { lastMessageIncludes: 'flaky task' }, error: { status: 400, message: 'the model broke' } },
    ]);
    const parent = await h.runtime.start({ prompt: 'plan the release', workdir: h.workdir });
    const [flaky] = await eventually(async () => {
      const list = await h.runtime.agents.list(parent.id);
      return list.length === 1 && list[0]!.status === 'failed' && list;
    });
    expect(flaky!.error).toContain('the model broke');
    h.model.push(
      {
        when: { lastRole: 'tool', lastMessageIncludes: 'gate-open' },
        toolCalls: [
          { name: 'resume_agent', arguments: { agent_id: flaky!.agent_id } },
          { name: 'get_agent_status', arguments: { agent_id: flaky!.agent_id, wait: true } },
        ],
      },
      { when: { lastRole: 'tool', lastMessageIncludes: 'Recovered' }, text: 'Release planned.' },
    );
    await writeFile(join(h.workdir, 'go'), '');
    const final = await eventually(
      async () => {
        const run = await h.runtime.runs.get(parent.id);
        return ['succeeded', 'failed'].includes(run.status) && run;
      },
      { timeoutMs: 15_000 },
    );
    expect(final.status).toBe('succeeded');

    const resumed = await h.runtime.agents.get(flaky!.agent_id);
    expect(resumed).toMatchObject({
      status: 'completed',
      output: 'Recovered: three changes.',
      created_at: flaky!.created_at,
      task: 'flaky task: list the changes',
    });
    expect(resumed.run_id).not.toBe(flaky!.run_id);
    expect((await h.runtime.runs.get(resumed.run_id)).agent).toMatchObject({ resumes: flaky!.run_id });
    // The model request of the new run: the original task and the previous error, word for word.
    const request = h.model.chatRequests.find((body) => lastText(body).includes('Previous error'))!;
    expect(lastText(request)).toContain('Your task: flaky task: list the changes');
    expect(lastText(request)).toContain(`Previous error: ${flaky!.error}`);
    // Its two runs under the one agent id, newest first.
    const runs = await h.runtime.runs.list({ agent_id: flaky!.agent_id });
    expect(runs.map((run) => run.id)).toEqual([resumed.run_id, flaky!.run_id]);
  }, 60_000);

  test('a parent parked on a sub-agent that ended without waking it is woken by whoever follows it', async () => {
    await using h = await startHarness([]);
    const parent = await h.runtime.start(
      { prompt: 'wait for the stranded one', workdir: h.workdir },
      { execute: false },
    );
    const store = await h.runtime.store();
    const child = await strandedAgentRun(store, h.workdir, new Date(Date.now() + 60_000), parent.id);
    const agentId = child.agent!.agent_id;
    h.model.push(
      {
        when: { lastMessageIncludes: 'wait for the stranded one' },
        toolCalls: [{ name: 'get_agent_status', arguments: { agent_id: agentId, wait: true } }],
      },
      { when: { lastRole: 'tool', lastMessageIncludes: '"status": "killed"' }, text: 'It was killed.' },
    );
    expect((await h.runtime.drive(parent.id))?.run.status).toBe('waiting');
    expect(await h.runtime.agents.wakeIfReady(parent.id)).toBe(false);
    // Cancelled as a plain run, behind the agents API: nothing wakes the parent at the time…
    await h.runtime.runs.cancel(child.id);
    expect((await h.runtime.runs.get(parent.id)).status).toBe('waiting');
    // …but whoever follows it does (the runtime's follow loop asks on every look at a waiting run).
    expect(await h.runtime.agents.wakeIfReady(parent.id)).toBe(true);
    const done = await h.runtime.drive(parent.id);
    expect(done?.run.status).toBe('succeeded');
    expect((done!.run.result as { output: string }).output).toBe('It was killed.');
  });

  test('a parent cancelled while it waits leaves no sub-agent working: the next look kills them', async () => {
    await using h = await startHarness([]);
    const parent = await h.runtime.start({ prompt: 'wait for it', workdir: h.workdir }, { execute: false });
    const store = await h.runtime.store();
    const child = await strandedAgentRun(store, h.workdir, new Date(Date.now() + 60_000), parent.id);
    h.model.push({
      when: { lastMessageIncludes: 'wait for it' },
      toolCalls: [{ name: 'get_agent_status', arguments: { agent_id: child.agent!.agent_id, wait: true } }],
    });
    expect((await h.runtime.drive(parent.id))?.run.status).toBe('waiting');
    // Cancelled where it waits, with no worker to see it end and settle its sub-agents.
    expect((await h.runtime.runs.cancel(parent.id)).status).toBe('cancelled');
    expect(await h.runtime.agents.get(child.agent!.agent_id)).toMatchObject({
      status: 'killed',
      error: 'The sub-agent was killed.',
    });
  });

  test('a store that fails while spawning is AGENT_ERROR, its cause in the message', async () => {
    await using h = await startHarness([]);
    const store = await h.runtime.store();
    const failing = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'createRun') {
          return () => Promise.reject(new StoreError('The SQLite store failed: database or disk is full'));
        }
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const runtime = createRuntime({
      runtimeDir: h.runtimeDir,
      model: 'mock-model',
      modelBaseUrl: h.model.url,
      env: {},
      store: failing,
    });
    try {
      await expect(runtime.agents.spawn({ task: 'anything', workdir: h.workdir })).rejects.toMatchObject({
        code: 'AGENT_ERROR',
        message: expect.stringContaining('database or disk is full'),
      });
    } finally {
      await runtime.close();
    }
  });

  test('a run sees only its own sub-agents: another’s id is a tool error, not a record', async () => {
    await using h = await startHarness([]);
    const outsider = await h.runtime.agents.spawn({ task: 'outsider', workdir: h.workdir, timeout: 60 });
    await h.runtime.agents.kill(outsider.agent_id);
    h.model.push(
      { toolCalls: [{ name: 'get_agent_status', arguments: { agent_id: outsider.agent_id } }] },
      { when: { lastRole: 'tool' }, text: 'Not mine.' },
    );
    const { result, events } = await h.collect({ prompt: 'peek' });
    expect(result?.output).toBe('Not mine.');
    const toolResult = events.find((event) => event.type === 'tool_result');
    expect(toolResult).toMatchObject({
      tool_name: 'get_agent_status',
      result: expect.stringContaining(`Sub-agent '${outsider.agent_id}' does not exist.`),
    });
  });
});
