import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { NewRun, RunAgent, RunStore } from '../../src/store/contract.ts';

/** What a store implementation hands the suite for each test (see StoreUnderTest in contract-suite.ts). */
type Open = () => Promise<{ store: RunStore; reopen: () => Promise<RunStore>; cleanup: () => Promise<void> }>;

function agentOf(agentId: string, overrides: Partial<RunAgent> = {}): RunAgent {
  return {
    agent_id: agentId,
    type: 'research',
    task: 'find the config loader',
    timeout_seconds: 300,
    deadline_at: '2030-01-01T00:05:00.000Z',
    spawned_at: '2030-01-01T00:00:00.000Z',
    resumes: null,
    ...overrides,
  };
}

function childRun(parent: string | null, agent: RunAgent, extra: Partial<NewRun> = {}): NewRun {
  return {
    session_id: null,
    workdir: '/work/project',
    prompt: agent.task,
    workflow: null,
    input: { prompt: agent.task },
    parent_run_id: parent,
    agent,
    ...extra,
  };
}

/**
 * The store contract's sub-agent fields: a run's parent and agent, the filters that find them, and the
 * atomic limit on active sub-agent runs; run by describeStoreContract for every implementation.
 */
export function describeAgentRunContract(name: string, open: Open): void {
  describe(name, () => {
    let opened: Awaited<ReturnType<Open>>;
    let store: RunStore;
    const handles: RunStore[] = [];

    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });

    afterEach(async () => {
      for (const handle of handles.splice(0)) await handle.close();
      await store.close();
      await opened.cleanup();
    });

    test('a child run keeps its parent and agent fields; a plain run has neither', async () => {
      const parent = await store.createRun({
        session_id: null,
        workdir: '/work/project',
        prompt: 'lead',
        workflow: null,
        input: { prompt: 'lead' },
      });
      expect(parent).toMatchObject({ parent_run_id: null, agent: null });
      const agent = agentOf('agt_one');
      const child = await store.createRun(childRun(parent.id, agent));
      expect(child).toMatchObject({ parent_run_id: parent.id, agent, status: 'queued' });
      const other = await opened.reopen();
      handles.push(other);
      expect(await other.getRun(child.id)).toEqual(child);
    });

    test('listRuns finds a run’s children, a sub-agent’s runs (newest first) and the active sub-agent runs', async () => {
      const parent = await store.createRun(childRun(null, agentOf('agt_x'), { agent: null }));
      const first = await store.createRun(childRun(parent.id, agentOf('agt_a')));
      const second = await store.createRun(childRun(parent.id, agentOf('agt_b')));
      const resumed = await store.createRun(childRun(parent.id, agentOf('agt_a', { resumes: first.id })));
      const lonely = await store.createRun(childRun(null, agentOf('agt_c')));
      const ids = (runs: { id: string }[]) => runs.map((run) => run.id);

      expect(ids(await store.listRuns({ parent_run_id: parent.id }))).toEqual([
        resumed.id,
        second.id,
        first.id,
      ]);
      expect(ids(await store.listRuns({ agent_id: 'agt_a' }))).toEqual([resumed.id, first.id]);
      expect(ids(await store.listRuns({ agent_id: 'agt_a', limit: 1 }))).toEqual([resumed.id]);
      expect(await store.listRuns({ agent_id: 'agt_missing' })).toEqual([]);

      await store.transition(first.id, { from: ['queued'], to: 'cancelled' });
      await store.claimRun(second.id, { owner: 'w', leaseMs: 60_000 });
      expect(ids(await store.listRuns({ active_agents: true }))).toEqual([lonely.id, resumed.id, second.id]);
      expect(ids(await store.listRuns({ active_agents: true, status: 'running' }))).toEqual([second.id]);
      expect(ids(await store.listRuns({ active_agents: true, parent_run_id: parent.id }))).toEqual([
        resumed.id,
        second.id,
      ]);
    });

    test('agent_limit refuses a sub-agent run once that many are active, from any handle', async () => {
      const made = [];
      for (const id of ['agt_1', 'agt_2', 'agt_3']) {
        made.push(await store.createRun({ ...childRun(null, agentOf(id)), agent_limit: 3 }));
      }
      const other = await opened.reopen();
      handles.push(other);
      await expect(
        other.createRun({ ...childRun(null, agentOf('agt_4')), agent_limit: 3 }),
      ).rejects.toMatchObject({
        code: 'AGENT_LIMIT_REACHED',
        details: { limit: 3, active: 3 },
      });
      // Plain runs never count, and a run created without the limit is not refused.
      await store.createRun({ ...childRun(null, agentOf('x'), { agent: null }) });
      await store.createRun(childRun(null, agentOf('agt_5')));
      await expect(
        store.createRun({ ...childRun(null, agentOf('agt_6')), agent_limit: 4 }),
      ).rejects.toMatchObject({
        code: 'AGENT_LIMIT_REACHED',
      });
      // An ended one frees its place.
      await store.transition(made[0]!.id, { from: ['queued'], to: 'failed' });
      await store.transition(made[1]!.id, { from: ['queued'], to: 'succeeded' });
      const admitted = await other.createRun({ ...childRun(null, agentOf('agt_6')), agent_limit: 4 });
      expect(admitted.agent?.agent_id).toBe('agt_6');
    });

    test('concurrent spawns against one limit admit exactly as many as it allows', async () => {
      const other = await opened.reopen();
      handles.push(other);
      const attempts = Array.from({ length: 8 }, (_, index) =>
        (index % 2 ? other : store).createRun({ ...childRun(null, agentOf(`agt_${index}`)), agent_limit: 5 }),
      );
      const settled = await Promise.allSettled(attempts);
      expect(settled.filter((each) => each.status === 'fulfilled')).toHaveLength(5);
      const refused = settled.filter((each) => each.status === 'rejected');
      expect(refused.map((each) => (each as PromiseRejectedResult).reason.code)).toEqual([
        'AGENT_LIMIT_REACHED',
        'AGENT_LIMIT_REACHED',
        'AGENT_LIMIT_REACHED',
      ]);
    });
  });
}
