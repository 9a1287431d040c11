import { describe, expect, test } from 'vitest';
import { describeStoreContract } from '../../runtime/test/store/contract-suite.ts';
import { openTestStore, pgUrl } from './pg-test-store.ts';

// The one store suite every implementation passes, each test on a fresh schema; then a few round trips
// of PostgreSQL's own.
describe.skipIf(!pgUrl)('PostgreSQL', () => {
  describeStoreContract('PostgresRunStore contract', () => openTestStore(pgUrl!));
});

const newRun = {
  session_id: null,
  workdir: '/repo',
  prompt: 'p',
  workflow: { nodes: [] },
  input: { a: [1] },
};

describe.skipIf(!pgUrl)('PostgresRunStore records', () => {
  const url = pgUrl!;

  test('a run goes queued → running → failed → queued (retry) with its fields kept', async () => {
    const { store, cleanup } = await openTestStore(url);
    try {
      const run = await store.createRun(newRun);
      expect(run).toMatchObject({
        status: 'queued',
        workflow: { nodes: [] },
        input: { a: [1] },
        last_seq: 0,
        attempt: 1,
        usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
        cost_usd: 0,
        started_at: null,
      });
      expect(run.created_at).toMatch(/Z$/);
      const claimed = await store.claimRun(run.id, { owner: 'w', leaseMs: 10_000 });
      expect(claimed?.started_at).not.toBeNull();
      await store.addUsage(run.id, { input_tokens: 3, output_tokens: 2, total_tokens: 5 }, 0.25);
      const failed = await store.transition(run.id, {
        from: ['running'],
        to: 'failed',
        owner: 'w',
        error: { code: 'MODEL_ERROR', message: 'down' },
      });
      expect(failed).toMatchObject({ status: 'failed', lease_owner: null, error: { code: 'MODEL_ERROR' } });
      expect(failed.ended_at).not.toBeNull();
      expect(failed.usage).toEqual({ input_tokens: 3, output_tokens: 2, total_tokens: 5 });
      await expect(store.transition(run.id, { from: ['running'], to: 'succeeded' })).rejects.toMatchObject({
        code: 'INVALID_STATE',
        message: `Run '${run.id}' is failed; this applies only to a run that is running.`,
        details: { run_id: run.id, status: 'failed', allowed: ['running'] },
      });
      const retried = await store.transition(run.id, {
        from: ['failed', 'cancelled'],
        to: 'queued',
        nextAttempt: true,
      });
      expect(retried).toMatchObject({ status: 'queued', attempt: 2, ended_at: null });
      await expect(store.getRun('run_missing')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
      await expect(
        store.transition('run_missing', { from: ['queued'], to: 'running' }),
      ).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
    } finally {
      await cleanup();
    }
  });

  test('runs list newest first, by status and page cursor', async () => {
    const { store, cleanup } = await openTestStore(url);
    try {
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push((await store.createRun(newRun)).id);
      await store.claimRun(ids[1]!, { owner: 'w', leaseMs: 1000 });
      expect((await store.listRuns()).map((run) => run.id)).toEqual([...ids].reverse());
      expect((await store.listRuns({ status: 'running' })).map((run) => run.id)).toEqual([ids[1]]);
      expect((await store.listRuns({ limit: 2, before: ids[3] })).map((run) => run.id)).toEqual([
        ids[2],
        ids[1],
      ]);
    } finally {
      await cleanup();
    }
  });

  test('steps, checkpoints, approvals, controls, artifacts and audit round-trip', async () => {
    const { store, reopen, cleanup } = await openTestStore(url);
    try {
      const run = await store.createRun(newRun);
      const step = await store.startStep({
        run_id: run.id,
        node_id: 'n',
        kind: 'model_turn',
        detail: { a: 1 },
      });
      expect(step).toMatchObject({ status: 'running', attempt: 1, ended_at: null });
      const done = await store.finishStep(step.id, { status: 'succeeded', detail: { b: 2 } });
      expect(done).toMatchObject({ status: 'succeeded', detail: { a: 1, b: 2 } });
      await expect(store.finishStep(step.id, { status: 'failed' })).rejects.toMatchObject({
        code: 'INVALID_STATE',
      });
      await expect(store.startStep({ run_id: 'run_nope', node_id: 'n', kind: 'tool' })).rejects.toMatchObject(
        {
          code: 'RUN_NOT_FOUND',
        },
      );

      await store.appendEvent(run.id, { type: 'a' });
      const first = await store.saveCheckpoint({ run_id: run.id, step_id: step.id, state: [1, 2] });
      await store.appendEvent(run.id, { type: 'b' });
      const second = await store.saveCheckpoint({ run_id: run.id, step_id: null, state: { x: null } });
      expect([first.seq, second.seq]).toEqual([1, 2]);
      expect(first.state).toEqual([1, 2]);
      expect((await store.latestCheckpoint(run.id))?.id).toBe(second.id);
      expect((await store.listCheckpoints(run.id)).map((c) => c.id)).toEqual([first.id, second.id]);
      await expect(store.getCheckpoint('chk_nope')).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });

      const approval = await store.createApproval({
        run_id: run.id,
        step_id: null,
        node_id: 'n',
        kind: 'tool',
        prompt: 'ok?',
        options: ['approve', 'reject'],
      });
      const other = await reopen();
      const decisions = await Promise.allSettled([
        store.decideApproval(approval.id, { status: 'approved', decided_by: 'a' }),
        other.decideApproval(approval.id, { status: 'rejected', decided_by: 'b' }),
      ]);
      expect(decisions.filter((d) => d.status === 'fulfilled')).toHaveLength(1);
      expect((await store.listApprovals({ run_id: run.id, status: 'pending' })).length).toBe(0);
      await expect(store.getApproval('apr_nope')).rejects.toMatchObject({ code: 'APPROVAL_NOT_FOUND' });

      await store.requestControl(run.id, 'pause');
      await other.requestControl(run.id, 'cancel');
      expect(await store.takeControls(run.id)).toEqual(['pause', 'cancel']);
      expect(await other.takeControls(run.id)).toEqual([]);

      const artifact = await store.addArtifact({
        run_id: run.id,
        step_id: null,
        node_id: 'n',
        name: 'review.json',
        kind: 'review',
        media_type: 'application/json',
        size: 2,
        sha256: 'ab',
        uri: 's3://b/k',
        metadata: { verdict: 'pass' },
      });
      expect(await store.getArtifact(artifact.id)).toEqual(artifact);
      expect(await store.listArtifacts(run.id)).toEqual([artifact]);
      await expect(store.getArtifact('art_nope')).rejects.toMatchObject({ code: 'ARTIFACT_NOT_FOUND' });

      const entry = {
        tool_name: null,
        args_summary: '',
        result_summary: '',
        session_id: null,
        workdir: '/repo',
      };
      await store.recordAudit({ ...entry, event: 'run_control', run_id: run.id, success: true });
      const last = await store.recordAudit({ ...entry, event: 'tool_call', run_id: null, success: false });
      const all = await store.listAudit({ limit: 1 });
      expect(all.total).toBe(2);
      expect(all.entries).toEqual([last]);
      expect((await store.listAudit({ event: 'run_control' })).total).toBe(1);
      expect((await store.listAudit({ since: new Date(Date.now() + 60_000).toISOString() })).total).toBe(0);

      await store.transition(run.id, { from: ['queued'], to: 'cancelled' });
      await expect(store.requestControl(run.id, 'cancel')).rejects.toMatchObject({ code: 'INVALID_STATE' });
      await expect(store.listEvents('run_nope')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
      expect((await store.listEvents(run.id, { after: 1 })).map((e) => e.event)).toEqual([{ type: 'b' }]);
    } finally {
      await cleanup();
    }
  });
});
