import { eventually } from '@keel/testkit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ErrorCode } from '../../src/errors/index.ts';
import { KeelError } from '../../src/errors/index.ts';
import type { JsonObject, NewRun, Run, RunStatus, RunStore } from '../../src/store/contract.ts';
import { newId } from '../../src/store/ids.ts';
import { describeAgentRunContract } from './agent-run-contract.ts';
import { describeProjectContract } from './project-contract.ts';

/** What a store implementation hands the suite for each test. */
export interface StoreUnderTest {
  store: RunStore;
  /** a second handle on the same database, as another process would have */
  reopen: () => Promise<RunStore>;
  /** Removes the database; called after the suite has closed `store` and every reopened handle. */
  cleanup: () => Promise<void>;
}

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The KeelError a promise rejects with, checked against the expected code. */
async function rejection(promise: Promise<unknown>, code: ErrorCode): Promise<KeelError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  if (!KeelError.is(caught))
    throw new Error(`Expected a KeelError with code ${code}, got ${String(caught)}.`);
  expect(caught.code).toBe(code);
  return caught;
}

function newRun(overrides: Partial<NewRun> = {}): NewRun {
  return {
    session_id: null,
    workdir: '/work/project',
    prompt: 'fix the tests',
    workflow: { nodes: [{ id: 'agent', kind: 'agent' }], edges: [] },
    input: { prompt: 'fix the tests', max_steps: 20 },
    ...overrides,
  };
}

const sortedDesc = (ids: string[]): string[] => [...ids].sort().reverse();

/**
 * The durable store contract (src/store/contract.ts) as tests: every implementation registers it with
 * its own `open`, on a fresh database per test.
 */
export function describeStoreContract(
  name: string,
  open: () => Promise<{
    store: RunStore;
    /** a second handle on the same database, as another process would have */
    reopen: () => Promise<RunStore>;
    cleanup: () => Promise<void>;
  }>,
): void {
  describe(name, () => {
    let opened: StoreUnderTest;
    let store: RunStore;
    let handles: RunStore[] = [];

    beforeEach(async () => {
      opened = await open();
      store = opened.store;
      handles = [];
    });

    afterEach(async () => {
      for (const handle of handles) await handle.close();
      await store.close();
      await opened.cleanup();
    });

    /** Another process's view of the same database, closed after the test. */
    async function other(): Promise<RunStore> {
      const handle = await opened.reopen();
      handles.push(handle);
      return handle;
    }

    async function runningRun(owner = 'worker-a', leaseMs = 60_000): Promise<Run> {
      const run = await store.createRun(newRun());
      const claimed = await store.claimRun(run.id, { owner, leaseMs });
      expect(claimed).not.toBeNull();
      return claimed!;
    }

    describe('runs', () => {
      test('createRun stores a queued run with every field in its initial state', async () => {
        expect(typeof store.kind).toBe('string');
        const input = newRun({
          session_id: 'ses_1',
          input: { prompt: 'hi', nested: { list: [1, 'two', null] } },
        });
        const run = await store.createRun(input);
        expect(run.id).toMatch(/^run_[0-9a-z]{26}$/);
        expect(run).toMatchObject({
          status: 'queued',
          session_id: 'ses_1',
          workdir: input.workdir,
          prompt: input.prompt,
          workflow: input.workflow,
          input: input.input,
          result: null,
          error: null,
          last_seq: 0,
          attempt: 1,
          forked_from: null,
          lease_owner: null,
          lease_expires_at: null,
          usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
          cost_usd: 0,
          started_at: null,
          ended_at: null,
        });
        expect(run.created_at).toMatch(isoUtc);
        expect(run.updated_at).toMatch(isoUtc);
        expect(await store.getRun(run.id)).toEqual(run);
        expect(await (await other()).getRun(run.id)).toEqual(run);
      });

      test('createRun keeps an explicit status and the fork origin', async () => {
        const forked_from = { run_id: 'run_origin', checkpoint_id: 'chk_origin' };
        const run = await store.createRun(newRun({ status: 'paused', forked_from, workflow: null }));
        expect(run).toMatchObject({ status: 'paused', forked_from, workflow: null });
        expect(await store.getRun(run.id)).toEqual(run);
      });

      test('getRun of an unknown id is RUN_NOT_FOUND', async () => {
        await rejection(store.getRun('run_missing'), 'RUN_NOT_FOUND');
      });

      test('listRuns is newest first (by id), filters by status and pages with before', async () => {
        const created: Run[] = [];
        for (let i = 0; i < 7; i++) created.push(await store.createRun(newRun({ prompt: `run ${i}` })));
        const ids = created.map((run) => run.id);
        // Ids are time-sortable: made one after another, they increase.
        expect([...ids].sort()).toEqual(ids);
        expect((await store.listRuns()).map((run) => run.id)).toEqual(sortedDesc(ids));

        await store.claimRun(ids[2]!, { owner: 'w', leaseMs: 60_000 });
        await store.claimRun(ids[5]!, { owner: 'w', leaseMs: 60_000 });
        expect((await store.listRuns({ status: 'running' })).map((run) => run.id)).toEqual([ids[5], ids[2]]);
        expect((await store.listRuns({ status: 'queued', limit: 2 })).map((run) => run.id)).toEqual([
          ids[6],
          ids[4],
        ]);
        expect(await store.listRuns({ status: 'failed' })).toEqual([]);

        const paged: string[] = [];
        let before: string | undefined;
        for (;;) {
          const page = await store.listRuns({ limit: 3, ...(before ? { before } : {}) });
          if (page.length === 0) break;
          expect(page.length).toBeLessThanOrEqual(3);
          paged.push(...page.map((run) => run.id));
          before = page.at(-1)!.id;
        }
        expect(paged).toEqual(sortedDesc(ids));
        expect((await store.listRuns({ before: ids[3]! })).map((run) => run.id)).toEqual([
          ids[2],
          ids[1],
          ids[0],
        ]);
      });

      test('listRuns returns 20 runs by default', async () => {
        for (let i = 0; i < 23; i++) await store.createRun(newRun());
        expect(await store.listRuns()).toHaveLength(20);
        expect(await store.listRuns({ limit: 50 })).toHaveLength(23);
      });

      test('addUsage accumulates tokens and cost, from any handle', async () => {
        const run = await store.createRun(newRun());
        await store.addUsage(run.id, { input_tokens: 100, output_tokens: 20, total_tokens: 120 }, 0.25);
        await (await other()).addUsage(run.id, { input_tokens: 5, output_tokens: 7, total_tokens: 12 }, 0.5);
        const after = await store.getRun(run.id);
        expect(after.usage).toEqual({ input_tokens: 105, output_tokens: 27, total_tokens: 132 });
        expect(after.cost_usd).toBeCloseTo(0.75, 10);
        await rejection(
          store.addUsage('run_missing', { input_tokens: 1, output_tokens: 1, total_tokens: 2 }, 0),
          'RUN_NOT_FOUND',
        );
      });
    });

    describe('transition', () => {
      test('moves through the lifecycle, setting started_at, ended_at, result and releasing the lease', async () => {
        const run = await store.createRun(newRun());
        const running = await store.transition(run.id, { from: ['queued'], to: 'running' });
        expect(running.status).toBe('running');
        expect(running.started_at).toMatch(isoUtc);
        expect(running.ended_at).toBeNull();

        const waiting = await store.transition(run.id, { from: ['running'], to: 'waiting' });
        expect(waiting).toMatchObject({ status: 'waiting', started_at: running.started_at, ended_at: null });
        const again = await store.transition(run.id, { from: ['waiting'], to: 'running' });
        // started_at records the first start only.
        expect(again.started_at).toBe(running.started_at);

        const result = { answer: 'done', files: ['a.ts'], score: 0.5, ok: true };
        const done = await store.transition(run.id, { from: ['running'], to: 'succeeded', result });
        expect(done).toMatchObject({ status: 'succeeded', result, error: null, lease_owner: null });
        expect(done.ended_at).toMatch(isoUtc);
        expect(await store.getRun(run.id)).toEqual(done);
      });

      test('a transition from the wrong state is INVALID_STATE and changes nothing', async () => {
        const run = await store.createRun(newRun());
        await store.transition(run.id, { from: ['queued'], to: 'succeeded' });
        const before = await store.getRun(run.id);
        const error = await rejection(
          store.transition(run.id, { from: ['failed', 'cancelled'], to: 'queued', nextAttempt: true }),
          'INVALID_STATE',
        );
        expect(error.message).toContain(run.id);
        expect(error.message).toContain('succeeded');
        expect(error.details).toMatchObject({
          run_id: run.id,
          status: 'succeeded',
          allowed: ['failed', 'cancelled'],
        });
        expect(await store.getRun(run.id)).toEqual(before);
      });

      test('a transition of an unknown run is RUN_NOT_FOUND', async () => {
        await rejection(
          store.transition('run_missing', { from: ['queued'], to: 'running' }),
          'RUN_NOT_FOUND',
        );
      });

      test('with owner, only the lease holder may change the run', async () => {
        const run = await runningRun('worker-a');
        await rejection(
          store.transition(run.id, { from: ['running'], to: 'succeeded', owner: 'worker-b' }),
          'INVALID_STATE',
        );
        expect((await store.getRun(run.id)).status).toBe('running');
        const done = await store.transition(run.id, {
          from: ['running'],
          to: 'succeeded',
          owner: 'worker-a',
        });
        expect(done).toMatchObject({ status: 'succeeded', lease_owner: null, lease_expires_at: null });
      });

      test('the lease is released by default unless the run stays running; releaseLease overrides', async () => {
        const run = await runningRun('worker-a');
        const stillRunning = await store.transition(run.id, { from: ['running'], to: 'running' });
        expect(stillRunning.lease_owner).toBe('worker-a');
        expect(stillRunning.lease_expires_at).toBe(run.lease_expires_at);

        const paused = await store.transition(run.id, {
          from: ['running'],
          to: 'paused',
          releaseLease: false,
        });
        expect(paused.lease_owner).toBe('worker-a');
        const waiting = await store.transition(run.id, { from: ['paused'], to: 'waiting' });
        expect(waiting).toMatchObject({ lease_owner: null, lease_expires_at: null });

        const other = await runningRun('worker-b');
        const released = await store.transition(other.id, {
          from: ['running'],
          to: 'running',
          releaseLease: true,
        });
        expect(released).toMatchObject({ status: 'running', lease_owner: null, lease_expires_at: null });
      });

      test('a failed run keeps its error; a retry counts the attempt, clears the error and reopens the run', async () => {
        const run = await runningRun();
        const error = {
          code: 'MODEL_ERROR' as const,
          message: 'The model failed.',
          details: { status: 502 },
        };
        const failed = await store.transition(run.id, { from: ['running'], to: 'failed', error });
        expect(failed).toMatchObject({ status: 'failed', error, attempt: 1 });
        expect(failed.ended_at).toMatch(isoUtc);

        const retried = await store.transition(run.id, {
          from: ['failed', 'cancelled'],
          to: 'queued',
          nextAttempt: true,
          error: null,
        });
        expect(retried).toMatchObject({ status: 'queued', attempt: 2, error: null, ended_at: null });
        // Fields the change does not name are kept.
        const kept = await store.transition(run.id, { from: ['queued'], to: 'cancelled' });
        expect(kept).toMatchObject({ attempt: 2, error: null, result: null });
      });

      test('a status change is seen by another handle', async () => {
        const run = await store.createRun(newRun());
        await store.transition(run.id, { from: ['queued'], to: 'cancelled' });
        expect((await (await other()).getRun(run.id)).status).toBe('cancelled');
      });
    });

    describe('claims and leases', () => {
      test('claimRun takes a queued run with a lease; a second claim gets null', async () => {
        const run = await store.createRun(newRun());
        const before = Date.now();
        const claimed = await store.claimRun(run.id, { owner: 'host:1:a', leaseMs: 30_000 });
        expect(claimed).toMatchObject({ id: run.id, status: 'running', lease_owner: 'host:1:a' });
        expect(claimed!.started_at).toMatch(isoUtc);
        const expires = Date.parse(claimed!.lease_expires_at!);
        expect(expires).toBeGreaterThanOrEqual(before + 30_000 - 1000);
        expect(expires).toBeLessThanOrEqual(Date.now() + 30_000 + 1000);

        expect(await store.claimRun(run.id, { owner: 'host:2:b', leaseMs: 30_000 })).toBeNull();
        expect(await (await other()).claimRun(run.id, { owner: 'host:2:b', leaseMs: 30_000 })).toBeNull();
        expect((await store.getRun(run.id)).lease_owner).toBe('host:1:a');
      });

      test('claimRun honours from, and an unknown run is RUN_NOT_FOUND', async () => {
        const run = await store.createRun(newRun({ status: 'waiting' }));
        expect(await store.claimRun(run.id, { owner: 'w', leaseMs: 1000 })).toBeNull();
        const claimed = await store.claimRun(run.id, {
          owner: 'w',
          leaseMs: 1000,
          from: ['waiting', 'paused'],
        });
        expect(claimed).toMatchObject({ status: 'running', lease_owner: 'w' });
        await rejection(store.claimRun('run_missing', { owner: 'w', leaseMs: 1000 }), 'RUN_NOT_FOUND');
      });

      test('a running run is claimable only after its lease expired; then the old owner loses it', async () => {
        const run = await store.createRun(newRun());
        await store.claimRun(run.id, { owner: 'crashed', leaseMs: 150 });
        const rescuer = await other();
        const recover = { owner: 'rescuer', leaseMs: 60_000, from: ['running'] as RunStatus[] };
        // Still leased: not claimable.
        expect(await rescuer.claimRun(run.id, recover)).toBeNull();
        // The stores judge leases by their own clocks (PostgreSQL's is the database's): a real wait.
        const recovered = await eventually(() => rescuer.claimRun(run.id, recover), {
          what: 'the lease to expire',
        });
        expect(recovered).toMatchObject({ status: 'running', lease_owner: 'rescuer' });
        expect(Date.parse(recovered.lease_expires_at!)).toBeGreaterThan(Date.now() + 30_000);

        expect(await store.renewLease(run.id, { owner: 'crashed', leaseMs: 60_000 })).toBe(false);
        await rejection(
          store.transition(run.id, { from: ['running'], to: 'succeeded', owner: 'crashed' }),
          'INVALID_STATE',
        );
        expect(await rescuer.renewLease(run.id, { owner: 'rescuer', leaseMs: 60_000 })).toBe(true);
      });

      test('renewLease extends the lease of its holder and is false once the run stopped running', async () => {
        const run = await runningRun('worker-a', 1000);
        expect(await store.renewLease(run.id, { owner: 'worker-a', leaseMs: 120_000 })).toBe(true);
        const renewed = await store.getRun(run.id);
        expect(Date.parse(renewed.lease_expires_at!)).toBeGreaterThan(Date.parse(run.lease_expires_at!));
        expect(Date.parse(renewed.lease_expires_at!)).toBeGreaterThan(Date.now() + 60_000);
        expect(await store.renewLease(run.id, { owner: 'worker-b', leaseMs: 120_000 })).toBe(false);

        await store.transition(run.id, { from: ['running'], to: 'waiting' });
        expect(await store.renewLease(run.id, { owner: 'worker-a', leaseMs: 120_000 })).toBe(false);
        expect(await store.renewLease('run_missing', { owner: 'worker-a', leaseMs: 1000 })).toBe(false);
      });

      test('claimNext takes the oldest queued run and null when none is left', async () => {
        const waiting = await store.createRun(newRun({ status: 'waiting' }));
        const first = await store.createRun(newRun());
        const second = await store.createRun(newRun());
        expect((await store.claimNext({ owner: 'w', leaseMs: 60_000 }))?.id).toBe(first.id);
        const next = await store.claimNext({ owner: 'w', leaseMs: 60_000 });
        expect(next).toMatchObject({ id: second.id, status: 'running', lease_owner: 'w' });
        expect(next!.started_at).toMatch(isoUtc);
        expect(await store.claimNext({ owner: 'w', leaseMs: 60_000 })).toBeNull();
        expect((await store.getRun(waiting.id)).status).toBe('waiting');
      });

      test('two handles racing claimNext claim every queued run exactly once', async () => {
        const ids: string[] = [];
        for (let i = 0; i < 20; i++) ids.push((await store.createRun(newRun())).id);
        const workers = [
          { owner: 'worker-a', store },
          { owner: 'worker-b', store: await other() },
        ];
        const claims = await Promise.all(
          workers.map(async (worker) => {
            const got: string[] = [];
            for (;;) {
              const run = await worker.store.claimNext({ owner: worker.owner, leaseMs: 60_000 });
              if (!run) return got;
              expect(run.lease_owner).toBe(worker.owner);
              got.push(run.id);
            }
          }),
        );
        const all = claims.flat();
        expect(all).toHaveLength(20);
        expect([...all].sort()).toEqual([...ids].sort());
        for (const [index, worker] of workers.entries()) {
          for (const id of claims[index]!) expect((await store.getRun(id)).lease_owner).toBe(worker.owner);
        }
      });
    });

    describe('events', () => {
      test('appendEvent numbers events from 1 and they read back exactly', async () => {
        const run = await store.createRun(newRun());
        const events: (JsonObject & { type: string })[] = [
          { type: 'session_start', session_id: 'ses_1', model: 'm' },
          { type: 'text_delta', content: 'héllo 👋 "quoted" \n next', session_id: 'ses_1' },
          {
            type: 'tool_result',
            result: { ok: true, lines: [1, 2.5, -3], nested: { deep: [null, { x: 'y' }] } },
            empty: {},
            list: [],
          },
        ];
        const seqs: number[] = [];
        for (const event of events) seqs.push(await store.appendEvent(run.id, event));
        expect(seqs).toEqual([1, 2, 3]);
        const records = await store.listEvents(run.id);
        expect(records.map((record) => record.seq)).toEqual([1, 2, 3]);
        expect(records.map((record) => record.event)).toEqual(events);
        expect(records.map((record) => record.type)).toEqual(events.map((event) => event.type));
        for (const record of records) {
          expect(record.id).toMatch(/^evt_/);
          expect(record.run_id).toBe(run.id);
          expect(record.created_at).toMatch(isoUtc);
        }
        expect((await store.getRun(run.id)).last_seq).toBe(3);
        expect((await (await other()).listEvents(run.id)).map((record) => record.event)).toEqual(events);
      });

      test('listEvents reads after a cursor, with a limit', async () => {
        const run = await store.createRun(newRun());
        for (let i = 1; i <= 10; i++) await store.appendEvent(run.id, { type: 'tick', i });
        const page = await store.listEvents(run.id, { after: 4, limit: 3 });
        expect(page.map((record) => record.seq)).toEqual([5, 6, 7]);
        expect(page.map((record) => record.event.i)).toEqual([5, 6, 7]);
        expect((await store.listEvents(run.id, { after: 7 })).map((record) => record.seq)).toEqual([
          8, 9, 10,
        ]);
        expect(await store.listEvents(run.id, { after: 10 })).toEqual([]);
        expect(await store.listEvents((await store.createRun(newRun())).id)).toEqual([]);
      });

      test('listEvents returns at most 1000 events by default', async () => {
        const run = await store.createRun(newRun());
        for (let i = 1; i <= 1003; i++) await store.appendEvent(run.id, { type: 'tick', i });
        const first = await store.listEvents(run.id);
        expect(first).toHaveLength(1000);
        expect(first.at(-1)!.seq).toBe(1000);
        expect((await store.listEvents(run.id, { after: 1000 })).map((record) => record.seq)).toEqual([
          1001, 1002, 1003,
        ]);
      });

      test('events of an unknown run are RUN_NOT_FOUND', async () => {
        await rejection(store.appendEvent('run_missing', { type: 'tick' }), 'RUN_NOT_FOUND');
        await rejection(store.listEvents('run_missing'), 'RUN_NOT_FOUND');
      });

      test('two handles appending to one run at once get a gapless sequence 1..400', async () => {
        const run = await store.createRun(newRun());
        const writers = [
          { name: 'a', store },
          { name: 'b', store: await other() },
        ];
        const returned = await Promise.all(
          writers.map(async (writer) => {
            const seqs: number[] = [];
            for (let i = 0; i < 200; i++)
              seqs.push(await writer.store.appendEvent(run.id, { type: 'tick', writer: writer.name, i }));
            return seqs;
          }),
        );
        const all = returned.flat().sort((a, b) => a - b);
        expect(all).toEqual(Array.from({ length: 400 }, (_, index) => index + 1));
        const records = await store.listEvents(run.id);
        expect(records.map((record) => record.seq)).toEqual(all);
        // Each writer's events keep its order, and each is stored under the number it was given.
        for (const [index, writer] of writers.entries()) {
          const mine = records.filter((record) => record.event.writer === writer.name);
          expect(mine.map((record) => record.event.i)).toEqual(Array.from({ length: 200 }, (_, i) => i));
          expect(mine.map((record) => record.seq)).toEqual(returned[index]);
        }
        expect((await store.getRun(run.id)).last_seq).toBe(400);
      });

      test('many appends in flight at once on one handle stay gapless', async () => {
        const run = await store.createRun(newRun());
        const seqs = await Promise.all(
          Array.from({ length: 100 }, (_, i) => store.appendEvent(run.id, { type: 'tick', i })),
        );
        expect([...seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
        const records = await store.listEvents(run.id);
        for (const record of records) expect(seqs[record.event.i as number]).toBe(record.seq);
      });
    });

    describe('steps', () => {
      test('startStep, finishStep and listSteps in start order', async () => {
        const run = await runningRun();
        const turn = await store.startStep({ run_id: run.id, node_id: 'agent', kind: 'model_turn' });
        expect(turn).toMatchObject({
          run_id: run.id,
          node_id: 'agent',
          kind: 'model_turn',
          status: 'running',
          attempt: 1,
          detail: {},
          error: null,
          ended_at: null,
        });
        expect(turn.id).toMatch(/^stp_/);
        expect(turn.started_at).toMatch(isoUtc);
        const tool = await store.startStep({
          run_id: run.id,
          node_id: 'agent',
          kind: 'tool',
          detail: { tool_name: 'read_file', args: { path: 'a.ts' } },
        });
        const done = await store.finishStep(tool.id, { status: 'succeeded', detail: { output_bytes: 120 } });
        expect(done).toMatchObject({
          status: 'succeeded',
          error: null,
          detail: { tool_name: 'read_file', args: { path: 'a.ts' }, output_bytes: 120 },
        });
        expect(done.ended_at).toMatch(isoUtc);
        const error = { code: 'TOOL_ERROR' as const, message: 'boom' };
        const failed = await store.finishStep(turn.id, { status: 'failed', error });
        expect(failed).toMatchObject({ status: 'failed', error });

        const third = await store.startStep({ run_id: run.id, node_id: 'gate', kind: 'gate', attempt: 3 });
        expect(third.attempt).toBe(3);
        const steps = await store.listSteps(run.id);
        expect(steps.map((step) => step.id)).toEqual([turn.id, tool.id, third.id]);
        expect(steps[1]).toEqual(done);
        expect(await (await other()).listSteps(run.id)).toEqual(steps);
        expect(await store.listSteps((await store.createRun(newRun())).id)).toEqual([]);
      });

      test('a waiting step can be finished later; a finished one cannot', async () => {
        const run = await runningRun();
        const step = await store.startStep({ run_id: run.id, node_id: 'review', kind: 'approval' });
        const waiting = await store.finishStep(step.id, { status: 'waiting' });
        expect(waiting).toMatchObject({ status: 'waiting', ended_at: null });
        const approved = await store.finishStep(step.id, { status: 'succeeded' });
        expect(approved.status).toBe('succeeded');
        await rejection(store.finishStep(step.id, { status: 'failed' }), 'INVALID_STATE');
        expect((await store.listSteps(run.id))[0]!.status).toBe('succeeded');
      });

      test("a step records its worker: the run's lease holder by default, or the one named", async () => {
        const run = await runningRun('host-a:101:0a0b0c0d');
        const turn = await store.startStep({ run_id: run.id, node_id: 'agent', kind: 'model_turn' });
        expect(turn.worker_id).toBe('host-a:101:0a0b0c0d');
        const named = await store.startStep({
          run_id: run.id,
          node_id: 'agent',
          kind: 'tool_batch',
          worker_id: 'web:host-b:202:1a2b3c4d',
        });
        expect(named.worker_id).toBe('web:host-b:202:1a2b3c4d');
        const finished = await store.finishStep(named.id, { status: 'succeeded' });
        expect(finished.worker_id).toBe('web:host-b:202:1a2b3c4d');
        expect((await (await other()).listSteps(run.id)).map((step) => step.worker_id)).toEqual([
          'host-a:101:0a0b0c0d',
          'web:host-b:202:1a2b3c4d',
        ]);
        // Nobody holds a queued run: a step written then names no worker.
        const queued = await store.createRun(newRun());
        const orphan = await store.startStep({ run_id: queued.id, node_id: 'agent', kind: 'node' });
        expect(orphan.worker_id).toBeNull();
      });

      test("a step's attempt defaults to the run's attempt; an unknown run is RUN_NOT_FOUND", async () => {
        const run = await runningRun();
        await store.transition(run.id, { from: ['running'], to: 'failed' });
        await store.transition(run.id, { from: ['failed'], to: 'queued', nextAttempt: true });
        const step = await store.startStep({ run_id: run.id, node_id: 'agent', kind: 'node' });
        expect(step.attempt).toBe(2);
        await rejection(
          store.startStep({ run_id: 'run_missing', node_id: 'n', kind: 'node' }),
          'RUN_NOT_FOUND',
        );
      });
    });

    describe('checkpoints', () => {
      test('a checkpoint captures the event cursor and its state; latest and list', async () => {
        const run = await runningRun();
        expect(await store.latestCheckpoint(run.id)).toBeNull();
        expect(await store.listCheckpoints(run.id)).toEqual([]);
        for (let i = 0; i < 3; i++) await store.appendEvent(run.id, { type: 'tick', i });
        const step = await store.startStep({ run_id: run.id, node_id: 'agent', kind: 'model_turn' });
        const state = { messages: [{ role: 'user', content: 'hi' }], cursor: { node: 'agent', turn: 1 } };
        const first = await store.saveCheckpoint({ run_id: run.id, step_id: step.id, state });
        expect(first).toMatchObject({ run_id: run.id, step_id: step.id, seq: 3, state });
        expect(first.id).toMatch(/^chk_/);
        expect(first.created_at).toMatch(isoUtc);

        const writer = await other();
        await writer.appendEvent(run.id, { type: 'tick', i: 3 });
        await writer.appendEvent(run.id, { type: 'tick', i: 4 });
        const second = await store.saveCheckpoint({ run_id: run.id, step_id: null, state: [1, 'two'] });
        expect(second).toMatchObject({ seq: 5, step_id: null, state: [1, 'two'] });

        expect(await store.getCheckpoint(first.id)).toEqual(first);
        expect(await store.latestCheckpoint(run.id)).toEqual(second);
        expect(await writer.listCheckpoints(run.id)).toEqual([first, second]);
      });

      test('finishStep: the step ends with its checkpoint, or neither is stored', async () => {
        const run = await runningRun();
        const step = await store.startStep({ run_id: run.id, node_id: 'agent', kind: 'model_turn' });
        const saved = await store.saveCheckpoint({
          run_id: run.id,
          step_id: step.id,
          state: { turn: 1 },
          finishStep: true,
        });
        expect(saved).toMatchObject({ step_id: step.id, state: { turn: 1 } });
        const [done] = await store.listSteps(run.id);
        expect(done).toMatchObject({ id: step.id, status: 'succeeded', error: null });
        expect(done!.ended_at).toMatch(isoUtc);
        // A step already finished cannot be finished again: the checkpoint is not stored either.
        await rejection(
          store.saveCheckpoint({ run_id: run.id, step_id: step.id, state: { turn: 2 }, finishStep: true }),
          'INVALID_STATE',
        );
        await rejection(
          store.saveCheckpoint({ run_id: run.id, step_id: 'stp_missing', state: {}, finishStep: true }),
          'INVALID_PARAMS',
        );
        // A waiting step (an approval) ends with its checkpoint too.
        const wait = await store.startStep({ run_id: run.id, node_id: 'agent', kind: 'tool_batch' });
        await store.finishStep(wait.id, { status: 'waiting' });
        await store.saveCheckpoint({
          run_id: run.id,
          step_id: wait.id,
          state: { turn: 3 },
          finishStep: true,
        });
        expect((await store.listSteps(run.id))[1]!.status).toBe('succeeded');
        expect((await store.listCheckpoints(run.id)).map((each) => each.state)).toEqual([
          { turn: 1 },
          { turn: 3 },
        ]);
      });

      test('checkpointChain starts at the latest whole checkpoint at or before the one asked for', async () => {
        const run = await runningRun();
        expect(await store.checkpointChain!(run.id)).toEqual([]);
        const save = (n: number, whole: boolean) =>
          store.saveCheckpoint({ run_id: run.id, step_id: null, state: { n }, whole });
        // A run whose checkpoints were never marked whole (older ones) is read from its first.
        const first = await save(1, false);
        const second = await save(2, false);
        expect(await store.checkpointChain!(run.id)).toEqual([first, second]);
        const third = await save(3, true);
        const fourth = await save(4, false);
        const fifth = await save(5, true);
        const sixth = await save(6, false);
        const reader = await other();
        expect(await reader.checkpointChain!(run.id)).toEqual([fifth, sixth]);
        expect(await reader.checkpointChain!(run.id, fourth.id)).toEqual([third, fourth]);
        expect(await reader.checkpointChain!(run.id, third.id)).toEqual([third]);
        expect(await reader.checkpointChain!(run.id, second.id)).toEqual([first, second]);
        await rejection(reader.checkpointChain!(run.id, 'chk_missing'), 'CHECKPOINT_NOT_FOUND');
        const elsewhere = await runningRun();
        const foreign = await store.saveCheckpoint({
          run_id: elsewhere.id,
          step_id: null,
          state: {},
          whole: true,
        });
        await rejection(reader.checkpointChain!(run.id, foreign.id), 'CHECKPOINT_NOT_FOUND');
        expect(await reader.checkpointChain!('run_missing')).toEqual([]);
      });

      test('unknown checkpoints are CHECKPOINT_NOT_FOUND; a checkpoint of an unknown run is RUN_NOT_FOUND', async () => {
        await rejection(store.getCheckpoint('chk_missing'), 'CHECKPOINT_NOT_FOUND');
        await rejection(
          store.saveCheckpoint({ run_id: 'run_missing', step_id: null, state: {} }),
          'RUN_NOT_FOUND',
        );
      });
    });

    describe('approvals', () => {
      test('createApproval, getApproval and decideApproval', async () => {
        const run = await runningRun();
        const approval = await store.createApproval({
          run_id: run.id,
          step_id: null,
          node_id: 'deploy',
          kind: 'tool',
          prompt: 'Run `rm -rf build`?',
          options: ['approve', 'reject'],
          detail: { tool_name: 'run_command', args: { command: 'rm -rf build' } },
        });
        expect(approval).toMatchObject({
          run_id: run.id,
          node_id: 'deploy',
          kind: 'tool',
          options: ['approve', 'reject'],
          status: 'pending',
          answer: null,
          decided_by: null,
          decided_at: null,
        });
        expect(approval.id).toMatch(/^apr_/);
        expect(await store.getApproval(approval.id)).toEqual(approval);

        // Decided from another process, seen by this one.
        const decided = await (await other()).decideApproval(approval.id, {
          status: 'rejected',
          answer: 'not now',
          decided_by: 'alice',
        });
        expect(decided).toMatchObject({ status: 'rejected', answer: 'not now', decided_by: 'alice' });
        expect(decided.decided_at).toMatch(isoUtc);
        expect(await store.getApproval(approval.id)).toEqual(decided);

        const question = await store.createApproval({
          run_id: run.id,
          step_id: null,
          node_id: 'ask',
          kind: 'question',
          prompt: 'Which branch?',
          options: [],
        });
        expect(question.detail).toEqual({});
        const answered = await store.decideApproval(question.id, { status: 'answered', answer: 'main' });
        expect(answered).toMatchObject({ status: 'answered', answer: 'main', decided_by: null });
      });

      test('deciding twice is INVALID_STATE; of two racing decisions exactly one wins', async () => {
        const run = await runningRun();
        const approval = await store.createApproval({
          run_id: run.id,
          step_id: null,
          node_id: 'n',
          kind: 'node',
          prompt: 'ok?',
          options: ['approve', 'reject'],
        });
        const handle = await other();
        const outcomes = await Promise.allSettled([
          store.decideApproval(approval.id, { status: 'approved', decided_by: 'a' }),
          handle.decideApproval(approval.id, { status: 'rejected', decided_by: 'b' }),
        ]);
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        const failure = outcomes.find((outcome) => outcome.status === 'rejected');
        expect((failure as PromiseRejectedResult).reason.code).toBe('INVALID_STATE');
        await rejection(store.decideApproval(approval.id, { status: 'cancelled' }), 'INVALID_STATE');
      });

      test('unknown approvals are APPROVAL_NOT_FOUND; an approval of an unknown run is RUN_NOT_FOUND', async () => {
        await rejection(store.getApproval('apr_missing'), 'APPROVAL_NOT_FOUND');
        await rejection(store.decideApproval('apr_missing', { status: 'approved' }), 'APPROVAL_NOT_FOUND');
        await rejection(
          store.createApproval({
            run_id: 'run_missing',
            step_id: null,
            node_id: 'n',
            kind: 'node',
            prompt: 'ok?',
            options: [],
          }),
          'RUN_NOT_FOUND',
        );
      });

      test('listApprovals is newest first and filters by run and status, with a limit', async () => {
        const runA = await runningRun();
        const runB = await runningRun();
        const make = (runId: string, node: string) =>
          store.createApproval({
            run_id: runId,
            step_id: null,
            node_id: node,
            kind: 'node',
            prompt: node,
            options: [],
          });
        const a1 = await make(runA.id, 'a1');
        const b1 = await make(runB.id, 'b1');
        const a2 = await make(runA.id, 'a2');
        const a3 = await make(runA.id, 'a3');
        await store.decideApproval(a2.id, { status: 'approved' });

        const ids = async (query?: Parameters<RunStore['listApprovals']>[0]) =>
          (await store.listApprovals(query)).map((approval) => approval.id);
        expect(await ids()).toEqual([a3.id, a2.id, b1.id, a1.id]);
        expect(await ids({ run_id: runA.id })).toEqual([a3.id, a2.id, a1.id]);
        expect(await ids({ status: 'pending' })).toEqual([a3.id, b1.id, a1.id]);
        expect(await ids({ run_id: runA.id, status: 'approved' })).toEqual([a2.id]);
        expect(await ids({ run_id: runA.id, limit: 2 })).toEqual([a3.id, a2.id]);
        expect(await ids({ status: 'answered' })).toEqual([]);
      });

      test('listApprovals returns 50 by default', async () => {
        const run = await runningRun();
        for (let i = 0; i < 53; i++) {
          await store.createApproval({
            run_id: run.id,
            step_id: null,
            node_id: 'n',
            kind: 'node',
            prompt: 'p',
            options: [],
          });
        }
        expect(await store.listApprovals()).toHaveLength(50);
        expect(await store.listApprovals({ limit: 100 })).toHaveLength(53);
      });
    });

    describe('controls', () => {
      test('requests from any handle are taken once, oldest first', async () => {
        const run = await runningRun();
        const id = await (await other()).requestControl(run.id, 'pause');
        expect(id).toMatch(/^ctl_/);
        await store.requestControl(run.id, 'cancel');
        expect(await store.takeControls(run.id)).toEqual(['pause', 'cancel']);
        expect(await store.takeControls(run.id)).toEqual([]);
        await store.requestControl(run.id, 'cancel');
        expect(await store.takeControls(run.id)).toEqual(['cancel']);
      });

      test('a queued, waiting or paused run takes requests too', async () => {
        for (const status of ['queued', 'waiting', 'paused'] as const) {
          const run = await store.createRun(newRun({ status }));
          await store.requestControl(run.id, 'cancel');
          expect(await store.takeControls(run.id)).toEqual(['cancel']);
        }
      });

      test('a finished run refuses requests; an unknown run is RUN_NOT_FOUND', async () => {
        for (const status of ['succeeded', 'failed', 'cancelled'] as const) {
          const run = await runningRun();
          await store.transition(run.id, { from: ['running'], to: status });
          const error = await rejection(store.requestControl(run.id, 'cancel'), 'INVALID_STATE');
          expect(error.details).toMatchObject({ run_id: run.id, status });
          expect(await store.takeControls(run.id)).toEqual([]);
        }
        await rejection(store.requestControl('run_missing', 'cancel'), 'RUN_NOT_FOUND');
      });
    });

    describe('user inputs', () => {
      test('messages for a run wait, oldest first, until marked consumed', async () => {
        const run = await runningRun();
        const first = await (await other()).addUserInput(run.id, 'also update the README');
        expect(first).toMatchObject({ run_id: run.id, content: 'also update the README', consumed_at: null });
        expect(first.id).toMatch(/^inp_/);
        const second = await store.addUserInput(run.id, 'and the changelog');
        expect((await store.pendingUserInputs(run.id)).map((input) => input.content)).toEqual([
          'also update the README',
          'and the changelog',
        ]);
        await store.consumeUserInputs(run.id, [first.id]);
        await store.consumeUserInputs(run.id, [first.id]);
        await store.consumeUserInputs(run.id, []);
        expect((await store.pendingUserInputs(run.id)).map((input) => input.id)).toEqual([second.id]);
        await (await other()).consumeUserInputs(run.id, [second.id, 'inp_unknown']);
        expect(await store.pendingUserInputs(run.id)).toEqual([]);
      });

      test('queued, waiting and paused runs take messages; finished runs and unknown runs refuse', async () => {
        for (const status of ['queued', 'waiting', 'paused'] as const) {
          const run = await store.createRun(newRun({ status }));
          await store.addUserInput(run.id, 'hello');
          expect(await store.pendingUserInputs(run.id)).toHaveLength(1);
        }
        const run = await runningRun();
        await store.transition(run.id, { from: ['running'], to: 'succeeded' });
        const error = await rejection(store.addUserInput(run.id, 'too late'), 'INVALID_STATE');
        expect(error.details).toMatchObject({ run_id: run.id, status: 'succeeded' });
        await rejection(store.addUserInput('run_missing', 'hello'), 'RUN_NOT_FOUND');
        await rejection(store.pendingUserInputs('run_missing'), 'RUN_NOT_FOUND');
      });
    });

    describe('artifacts', () => {
      test('addArtifact, getArtifact and listArtifacts oldest first', async () => {
        const run = await runningRun();
        const step = await store.startStep({ run_id: run.id, node_id: 'review', kind: 'gate' });
        const fields = {
          run_id: run.id,
          step_id: step.id,
          node_id: 'review',
          name: 'review.json',
          kind: 'review',
          media_type: 'application/json',
          size: 42,
          sha256: 'a'.repeat(64),
          uri: `file:${run.id}/review.json`,
          metadata: { verdict: 'pass', scores: [1, 2] },
        };
        const review = await store.addArtifact(fields);
        expect(review).toMatchObject(fields);
        expect(review.id).toMatch(/^art_/);
        expect(review.created_at).toMatch(isoUtc);

        // A caller may choose the id (to name the payload before the record exists).
        const presetId = newId('art');
        const output = await store.addArtifact({
          ...fields,
          id: presetId,
          step_id: null,
          node_id: null,
          name: 'out.txt',
          kind: 'output',
          media_type: 'text/plain',
          metadata: {},
        });
        expect(output).toMatchObject({ id: presetId, step_id: null, node_id: null, metadata: {} });

        expect(await store.getArtifact(review.id)).toEqual(review);
        expect(await (await other()).getArtifact(presetId)).toEqual(output);
        const third = await store.addArtifact({ ...fields, name: 'third.txt' });
        expect(await store.listArtifacts(run.id)).toEqual([review, output, third]);
        expect(await store.listArtifacts((await store.createRun(newRun())).id)).toEqual([]);
      });

      test('unknown artifacts are ARTIFACT_NOT_FOUND; an artifact of an unknown run is RUN_NOT_FOUND', async () => {
        await rejection(store.getArtifact('art_missing'), 'ARTIFACT_NOT_FOUND');
        await rejection(
          store.addArtifact({
            run_id: 'run_missing',
            step_id: null,
            node_id: null,
            name: 'x',
            kind: 'file',
            media_type: 'text/plain',
            size: 0,
            sha256: '',
            uri: 'file:x',
            metadata: {},
          }),
          'RUN_NOT_FOUND',
        );
      });
    });

    describe('audit', () => {
      const entry = (event: string, runId: string | null, success = true) => ({
        event,
        tool_name: event === 'tool_call' ? 'read_file' : null,
        args_summary: `args of ${event}`,
        result_summary: success ? 'ok' : 'denied',
        session_id: runId ? 'ses_1' : null,
        run_id: runId,
        workdir: '/work/project',
        success,
      });

      test('recordAudit stores the spec entry; listAudit is newest first with the total', async () => {
        const run = await store.createRun(newRun());
        const first = await store.recordAudit(entry('tool_call', run.id));
        expect(first).toMatchObject(entry('tool_call', run.id));
        expect(first.id).toMatch(/^aud_/);
        expect(first.timestamp).toMatch(isoUtc);
        const second = await (await other()).recordAudit(entry('auth_failure', null, false));
        expect(second.success).toBe(false);
        const third = await store.recordAudit(entry('file_write', run.id));

        expect(await store.listAudit()).toEqual({ entries: [third, second, first], total: 3 });
        expect(await store.listAudit({ limit: 1 })).toEqual({ entries: [third], total: 3 });
        expect(await store.listAudit({ event: 'auth_failure' })).toEqual({ entries: [second], total: 1 });
        expect(await store.listAudit({ run_id: run.id })).toEqual({ entries: [third, first], total: 2 });
        expect(await store.listAudit({ run_id: run.id, event: 'tool_call' })).toEqual({
          entries: [first],
          total: 1,
        });
        expect(await store.listAudit({ event: 'command_exec' })).toEqual({ entries: [], total: 0 });
      });

      test('since keeps entries at or after the instant; the default limit is 50', async () => {
        const recorded = [];
        for (let i = 0; i < 55; i++) recorded.push(await store.recordAudit(entry('tool_call', null)));
        const all = await store.listAudit();
        expect(all.total).toBe(55);
        expect(all.entries).toHaveLength(50);
        expect(all.entries[0]).toEqual(recorded.at(-1));

        const since = recorded[40]!.timestamp;
        const expected = recorded.filter((item) => item.timestamp >= since).reverse();
        const after = await store.listAudit({ since, limit: 100 });
        expect(after.total).toBe(expected.length);
        expect(after.entries).toEqual(expected);
        expect(await store.listAudit({ since: '2999-01-01T00:00:00.000Z' })).toEqual({
          entries: [],
          total: 0,
        });
      });
    });

    describe('subscribe', () => {
      test('a listener hears appends and status changes made by another handle, until it unsubscribes', async () => {
        const run = await store.createRun(newRun());
        const writer = await other();
        let heard = 0;
        let heardByLeaver = 0;
        const stop = store.subscribe(run.id, () => {
          heard += 1;
        });
        const leave = store.subscribe(run.id, () => {
          heardByLeaver += 1;
        });

        await writer.appendEvent(run.id, { type: 'tick' });
        await eventually(() => heard >= 1, { what: 'a notification of the append' });
        await eventually(() => heardByLeaver >= 1, { what: 'the second listener' });
        leave();
        const leaverCount = heardByLeaver;

        let before = heard;
        await writer.transition(run.id, { from: ['queued'], to: 'cancelled' });
        await eventually(() => heard > before, { what: 'a notification of the status change' });
        before = heard;
        // Once more, to prove the remaining listener still hears while the one that left does not.
        await writer.appendEvent(run.id, { type: 'late' });
        await eventually(() => heard > before, { what: 'a notification of the late append' });
        expect(heardByLeaver).toBe(leaverCount);

        stop();
        stop();
      });

      test('a listener on one run does not hear another run', async () => {
        const watched = await store.createRun(newRun());
        const noisy = await store.createRun(newRun());
        const writer = await other();
        let watchedCalls = 0;
        let noisyCalls = 0;
        const stopWatched = store.subscribe(watched.id, () => {
          watchedCalls += 1;
        });
        const stopNoisy = store.subscribe(noisy.id, () => {
          noisyCalls += 1;
        });
        await writer.appendEvent(noisy.id, { type: 'tick' });
        await eventually(() => noisyCalls >= 1, { what: 'the noisy run' });
        await writer.appendEvent(noisy.id, { type: 'tick' });
        await eventually(() => noisyCalls >= 2, { what: 'the noisy run again' });
        expect(watchedCalls).toBe(0);
        stopWatched();
        stopNoisy();
      });
    });
  });
  describeProjectContract(`${name}: projects and tasks`, open);
  describeAgentRunContract(`${name}: sub-agent runs`, open);
}
