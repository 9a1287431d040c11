import type { ErrorObject } from '../errors/index.ts';
import type { Claim, JsonObject, Run, RunStore } from '../store/index.ts';

/** Config `runs.auto_recover` and `runs.max_recoveries`, with their defaults. */
export interface RecoveryPolicy {
  enabled: boolean;
  maxRecoveries: number;
}

export const defaultRecoveryPolicy: RecoveryPolicy = { enabled: true, maxRecoveries: 3 };

export interface RecoveredOrphan {
  /** The run as it is now: `queued` again, or `failed` when it ran out of recoveries. */
  run: Run;
  /** The worker whose lease ran out. */
  lostOwner: string | null;
  /** Which recovery this was (1 for the first). */
  recovery: number;
}

/**
 * Takes over one orphaned run (see RunStore.claimOrphan) and recovers it as `RunControls.recover` does:
 * back to the queue, from its last checkpoint. A run that has already been recovered `maxRecoveries`
 * times keeps killing its workers: it ends `failed` instead. Either way the run gets an event
 * (`run_recovered`, or `error`) and an audit entry (`run_control`). Null when no run is orphaned.
 */
export async function recoverOrphan(
  store: RunStore,
  claim: Claim,
  policy: RecoveryPolicy,
): Promise<RecoveredOrphan | null> {
  const taken = await store.claimOrphan(claim);
  if (!taken) return null;
  const { run, lost_owner: lostOwner } = taken;
  const recovery = (await countRecoveries(store, run.id)) + 1;
  const session = run.session_id ?? '';
  // While this worker holds the lease, the run is its own: events written now come before the next attempt's.
  if (recovery > policy.maxRecoveries) {
    const error: ErrorObject = {
      code: 'SERVER_ERROR',
      message: `The run lost its worker ${recovery} times (last ${lostOwner ?? 'unknown'}); it was recovered ${policy.maxRecoveries} times (runs.max_recoveries), so it failed instead. Look at its last events for what ends its workers, then \`keel runs retry ${run.id}\`.`,
      details: { recoveries: policy.maxRecoveries, lost_owner: lostOwner },
    };
    await store.appendEvent(run.id, {
      type: 'error',
      error: error as unknown as JsonObject,
      session_id: session,
    });
    const failed = await store.transition(run.id, {
      from: ['running'],
      to: 'failed',
      owner: claim.owner,
      error,
      releaseLease: true,
    });
    await audit(store, failed, `recover (automatic): not again, ${recovery - 1} recoveries already`, false);
    return { run: failed, lostOwner, recovery };
  }
  await store.appendEvent(run.id, {
    type: 'run_recovered',
    session_id: session,
    lost_owner: lostOwner,
    recovered_by: claim.owner,
    recovery,
  });
  // Recorded before the run is queued again: the next execution counts its recoveries from the audit log
  // (executionAttempt), and another worker may claim the run the moment it is queued.
  await audit(
    store,
    { ...run, status: 'queued' },
    `recover (automatic ${recovery}/${policy.maxRecoveries}, lease of ${lostOwner} expired)`,
  );
  const queued = await store.transition(run.id, {
    from: ['running'],
    to: 'queued',
    owner: claim.owner,
    releaseLease: true,
  });
  return { run: queued, lostOwner, recovery };
}

/** Recoveries so far, manual or automatic: the `run_control` audit entries that say `recover`. */
export async function countRecoveries(store: RunStore, runId: string): Promise<number> {
  const { entries } = await store.listAudit({ event: 'run_control', run_id: runId, limit: 1000 });
  return entries.filter((entry) => entry.args_summary.startsWith('recover')).length;
}

/** The same audit entry RunControls writes for a control operation. */
async function audit(store: RunStore, run: Run, action: string, success = true): Promise<void> {
  await store
    .recordAudit({
      event: 'run_control',
      tool_name: null,
      args_summary: action,
      result_summary: `${run.id} is ${run.status}`,
      session_id: run.session_id,
      run_id: run.id,
      workdir: run.workdir,
      success,
    })
    .catch(() => undefined);
}
