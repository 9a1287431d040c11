import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type RunStore, type Runtime } from '@keel/runtime';
import { createTempGitRepo, eventually, type ScriptedReply, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { reviewScript, reviewWorkflow } from '../../runtime/test/fixtures/review-workflow.ts';
import { openTestStore, pgUrl } from './pg-test-store.ts';

// The runtime end to end on PostgreSQL: the same workflow as on SQLite, approvals across runtimes, and
// several workers sharing one database.

async function setup(script: ScriptedReply[], store?: RunStore) {
  const model = await startMockModel({ script });
  const repo = await createTempGitRepo({ files: { 'README.md': 'hello\n' } });
  const runtimeDir = await mkdtemp(join(tmpdir(), 'keel-pg-home-'));
  const make = (extra: { requireApproval?: string[]; store?: RunStore } = {}): Runtime =>
    createRuntime({
      runtimeDir,
      model: 'mock-model',
      modelBaseUrl: model.url,
      retry: { baseDelayMs: 5, maxDelayMs: 20 },
      env: {},
      ...(store ? { store } : {}),
      ...extra,
    });
  return {
    model,
    repo,
    make,
    async cleanup() {
      await model.close();
      await repo.remove();
      await rm(runtimeDir, { recursive: true, force: true });
    },
  };
}

describe.skipIf(!pgUrl)('the runtime on PostgreSQL', () => {
  test('a workflow with parallel, join, condition and fallback gives the same result as on SQLite', async () => {
    const results: unknown[] = [];
    for (const kind of ['sqlite', 'postgres'] as const) {
      const pg = kind === 'postgres' ? await openTestStore(pgUrl!) : undefined;
      const env = await setup(reviewScript, pg?.store);
      const runtime = env.make();
      try {
        const result = await runtime.run(
          { prompt: 'the app', workdir: env.repo.path },
          { workflow: reviewWorkflow },
        );
        const run = await runtime.runs.get(result.run_id);
        expect(run.status).toBe('succeeded');
        const events = await runtime.runs.events(run.id);
        expect(events.map((record) => record.seq)).toEqual(events.map((_, index) => index + 1));
        results.push({
          output: JSON.parse(result.output),
          outputs: (run.result as { outputs: unknown }).outputs,
          steps: (await runtime.runs.steps(run.id))
            .map((step) => `${step.node_id}:${step.kind}:${step.status}`)
            .sort(),
        });
      } finally {
        await runtime.close();
        await env.cleanup();
        await pg?.cleanup();
      }
    }
    expect(results[0]).toMatchObject({
      output: { joined: 'API looks fine.\n\nUI needs work.', fix: 'UI fixed.' },
    });
    expect(results[1]).toEqual(results[0]);
  });

  test('a run waiting for approval holds no worker; another runtime approves and finishes it', async () => {
    const pg = await openTestStore(pgUrl!);
    const env = await setup([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'ok\n' } }] },
      { when: { lastRole: 'tool' }, text: 'Written.' },
    ]);
    const first = env.make({ requireApproval: ['write_file'], store: pg.store });
    const secondStore = await pg.reopen();
    const second = env.make({ requireApproval: ['write_file'], store: secondStore });
    try {
      const run = await first.start({ prompt: 'write', workdir: env.repo.path }, { execute: false });
      expect((await first.drive(run.id))?.run).toMatchObject({ status: 'waiting', lease_owner: null });
      await first.close();
      const [approval] = await second.approvals.list({ run_id: run.id, status: 'pending' });
      expect((await second.approvals.approve(approval!.id)).run.status).toBe('queued');
      expect((await second.drive(run.id))?.run.status).toBe('succeeded');
      expect(await readFile(join(env.repo.path, 'out.txt'), 'utf8')).toBe('ok\n');
      const events = await second.runs.events(run.id);
      expect(events.map((record) => record.seq)).toEqual(events.map((_, index) => index + 1));
      expect(events.filter((record) => record.event.type === 'tool_call')).toHaveLength(1);
      expect(env.model.chatRequests).toHaveLength(2);
    } finally {
      await second.close();
      await env.cleanup();
      await pg.cleanup();
    }
  });

  test('two workers on one database run each of many runs exactly once', async () => {
    const pg = await openTestStore(pgUrl!);
    const count = 24;
    const script: ScriptedReply[] = [];
    for (let i = 0; i < count; i++) {
      script.push({ when: { lastMessageIncludes: `task ${i}.` }, text: `answer ${i}`, delayMs: 5 });
    }
    const env = await setup(script);
    const producer = env.make({ store: pg.store });
    const workers = [env.make({ store: await pg.reopen() }), env.make({ store: await pg.reopen() })];
    const stop = new AbortController();
    try {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        ids.push(
          (await producer.start({ prompt: `task ${i}.`, workdir: env.repo.path }, { execute: false })).id,
        );
      }
      const working = workers.map((worker) => worker.work({ signal: stop.signal, idleMs: 20 }));
      await eventually(
        async () => {
          const runs = await producer.runs.list({ limit: 100 });
          return runs.filter((run) => run.status === 'succeeded').length === count;
        },
        { timeoutMs: 30_000, intervalMs: 50, what: 'the workers to finish the runs' },
      );
      stop.abort();
      await Promise.all(working);
      const owners = new Set<string>();
      for (const [index, id] of ids.entries()) {
        const run = await producer.runs.get(id);
        expect((run.result as { output: string }).output).toBe(`answer ${index}`);
        const types = (await producer.runs.events(id)).map((record) => record.event.type);
        expect(types.filter((type) => type === 'session_start')).toHaveLength(1);
        expect(types.filter((type) => type === 'done')).toHaveLength(1);
        const turns = (await producer.runs.steps(id)).filter((step) => step.kind === 'model_turn');
        expect(turns).toHaveLength(1);
        owners.add(run.attempt === 1 ? 'ok' : 'retried');
      }
      expect(owners).toEqual(new Set(['ok']));
      expect(env.model.chatRequests).toHaveLength(count);
    } finally {
      stop.abort();
      for (const runtime of [producer, ...workers]) await runtime.close();
      await env.cleanup();
      await pg.cleanup();
    }
  });

  test('sub-agents on PostgreSQL: the limit holds across two runtimes, a kill and a completion are seen by both', async () => {
    const pg = await openTestStore(pgUrl!);
    const slow = (task: string): ScriptedReply => ({
      when: { lastMessageIncludes: task },
      delayMs: 60_000,
      text: 'late',
    });
    const env = await setup([
      slow('slow-1'),
      slow('slow-2'),
      slow('slow-3'),
      slow('slow-4'),
      slow('slow-5'),
      { when: { lastMessageIncludes: 'quick' }, text: 'Quick answer.' },
    ]);
    const first = env.make({ store: pg.store });
    const second = env.make({ store: await pg.reopen() });
    try {
      const spawned = [];
      for (const [index, runtime] of [first, second, first, second, first].entries()) {
        spawned.push(await runtime.agents.spawn({ task: `slow-${index + 1}`, workdir: env.repo.path }));
      }
      await expect(second.agents.spawn({ task: 'quick', workdir: env.repo.path })).rejects.toMatchObject({
        code: 'AGENT_LIMIT_REACHED',
        details: { limit: 5, active: 5 },
      });
      // Killed from the runtime that did not spawn it: its worker stops it.
      expect(await second.agents.kill(spawned[0]!.agent_id)).toMatchObject({
        killed: true,
        status: 'killed',
      });
      const quick = await second.agents.spawn({ task: 'quick', workdir: env.repo.path });
      const done = await eventually(
        async () => {
          const agent = await first.agents.get(quick.agent_id);
          return agent.status === 'completed' && agent;
        },
        { timeoutMs: 15_000 },
      );
      expect(done.output).toBe('Quick answer.');
      for (const agent of spawned.slice(1)) await first.agents.kill(agent.agent_id);
      expect((await pg.store.listRuns({ active_agents: true })).length).toBe(0);
    } finally {
      await first.close();
      await second.close();
      await env.cleanup();
      await pg.cleanup();
    }
  }, 60_000);
});

describe.skipIf(!pgUrl)('choosing the store by configuration', () => {
  test('a project config naming PostgreSQL is used by every runtime working on that directory', async () => {
    const pg = await openTestStore(pgUrl!);
    const env = await setup([{ text: 'Stored in PostgreSQL.' }]);
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(join(env.repo.path, '.runtime'), { recursive: true });
    await writeFile(
      join(env.repo.path, '.runtime', 'config.json'),
      JSON.stringify({ store: { kind: 'postgres', url: pgUrl, schema: pg.schema } }),
    );
    const homes = [await mkdtemp(join(tmpdir(), 'keel-a-')), await mkdtemp(join(tmpdir(), 'keel-b-'))];
    // `store` applies from a project file only in a trusted folder.
    const trust = { trustProjectConfig: true };
    const first = createRuntime({ workdir: env.repo.path, runtimeDir: homes[0]!, env: {}, ...trust });
    const second = createRuntime({ workdir: env.repo.path, runtimeDir: homes[1]!, env: {}, ...trust });
    try {
      expect((await first.store()).kind).toBe('postgres');
      const result = await first.run({
        prompt: 'hi',
        workdir: env.repo.path,
        model: 'mock-model',
        model_base_url: env.model.url,
      });
      // A runtime with another runtime directory (no shared SQLite) finds the run through the config.
      expect((await second.runs.get(result.run_id)).status).toBe('succeeded');
      expect((await pg.store.getRun(result.run_id)).status).toBe('succeeded');
    } finally {
      await first.close();
      await second.close();
      for (const home of homes) await rm(home, { recursive: true, force: true });
      await env.cleanup();
      await pg.cleanup();
    }
  });
});
