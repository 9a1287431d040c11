import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { recoverOrphan } from '../../src/runs/index.ts';
import type { NewRun, Run, RunStore } from '../../src/store/contract.ts';

/** What a store implementation hands the suite for each test (see StoreUnderTest in contract-suite.ts). */
type Open = () => Promise<{ store: RunStore; reopen: () => Promise<RunStore>; cleanup: () => Promise<void> }>;

const newRun: NewRun = {
  session_id: 'ses_1',
  workdir: '/work/project',
  prompt: 'fix the tests',
  workflow: null,
  input: { prompt: 'fix the tests' },
};

// A lease that ran out a minute ago: a dead worker's, with no wait for a clock.
const expired = -60_000;
const live = 60_000;

/** RunStore.claimOrphan and the automatic recovery on top of it, on one store implementation. */
export function describeOrphanContract(name: string, open: Open): void {
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

    /** A running run whose worker `owner` held a lease of `leaseMs` (negative: expired already). */
    async function running(owner: string, leaseMs: number): Promise<Run> {
      const run = await store.createRun(newRun);
      const claimed = await store.claimRun(run.id, { owner, leaseMs });
      expect(claimed?.status).toBe('running');
      return claimed!;
    }

    test('claimOrphan takes a running run whose lease expired, and no other', async () => {
      await store.createRun(newRun); // queued: not an orphan
      await running('alive', live);
      const orphan = await running('dead', expired);
      const taken = await store.claimOrphan({ owner: 'rescuer', leaseMs: live });
      expect(taken?.lost_owner).toBe('dead');
      expect(taken?.run).toMatchObject({ id: orphan.id, status: 'running', lease_owner: 'rescuer' });
      expect(Date.parse(taken!.run.lease_expires_at!)).toBeGreaterThan(Date.now());
      expect(await store.claimOrphan({ owner: 'rescuer', leaseMs: live })).toBeNull();
    });

    test('two handles racing claimOrphan take every orphan exactly once', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push((await running(`dead-${i}`, expired)).id);
      const other = await opened.reopen();
      handles.push(other);
      const takers = [
        { owner: 'worker-a', store },
        { owner: 'worker-b', store: other },
      ];
      const taken = await Promise.all(
        takers.map(async (taker) => {
          const got: string[] = [];
          for (;;) {
            const claim = await taker.store.claimOrphan({ owner: taker.owner, leaseMs: live });
            if (!claim) return got;
            got.push(claim.run.id);
          }
        }),
      );
      expect(taken.flat().sort()).toEqual([...ids].sort());
    });

    test('recoverOrphan queues the run with an event and an audit entry, then fails it past the bound', async () => {
      const orphan = await running('dead-1', expired);
      const policy = { enabled: true, maxRecoveries: 1 };
      const first = await recoverOrphan(store, { owner: 'rescuer', leaseMs: live }, policy);
      expect(first).toMatchObject({ lostOwner: 'dead-1', recovery: 1 });
      expect(first!.run).toMatchObject({ id: orphan.id, status: 'queued', lease_owner: null });

      // Claimed again by a worker that dies too: one recovery was all it had.
      await store.claimRun(orphan.id, { owner: 'dead-2', leaseMs: expired });
      const second = await recoverOrphan(store, { owner: 'rescuer', leaseMs: live }, policy);
      expect(second!.run).toMatchObject({ id: orphan.id, status: 'failed', lease_owner: null });
      expect(second!.run.error?.message).toContain('runs.max_recoveries');

      const events = (await store.listEvents(orphan.id)).map((record) => record.event);
      expect(events).toEqual([
        expect.objectContaining({ type: 'run_recovered', lost_owner: 'dead-1', recovered_by: 'rescuer' }),
        expect.objectContaining({ type: 'error' }),
      ]);
      const { entries } = await store.listAudit({ event: 'run_control', run_id: orphan.id });
      expect(entries.map((entry) => entry.args_summary).sort()).toEqual([
        'recover (automatic 1/1, lease of dead-1 expired)',
        'recover (automatic): not again, 1 recoveries already',
      ]);
      expect(await recoverOrphan(store, { owner: 'rescuer', leaseMs: live }, policy)).toBeNull();
    });
  });
}
