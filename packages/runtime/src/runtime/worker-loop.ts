import { setTimeout as wait } from 'node:timers/promises';
import { KeelError } from '../errors/index.ts';
import {
  type ExecutionOutcome,
  isStoreUnreachable,
  type RecoveryPolicy,
  recoverOrphan,
} from '../runs/index.ts';
import type { Run, RunStore } from '../store/index.ts';
import type { DriveOptions, WorkOptions } from './runtime-options.ts';

export interface WorkerDeps {
  /** Opens the store (again after a failure: a worker waits for its database). */
  store(): Promise<RunStore>;
  /** This worker's lease owner id. */
  owner: string;
  leaseMs(): number;
  /** Executes a run this worker has claimed. */
  execute(run: Run, options: DriveOptions): Promise<ExecutionOutcome>;
  /** Expires approvals past their interaction timeout, so their runs join the queue. */
  expire?(): Promise<unknown>;
  /** Config `runs.auto_recover` and `runs.max_recoveries`. */
  recovery(): RecoveryPolicy;
  /** After an orphan ran out of recoveries and failed here: settles its family (see settleEndedRun). */
  afterFailed?(run: Run): Promise<unknown>;
}

// Back-off between tries of an unreachable store: doubling from the first to the last.
const firstRetryMs = 250;
const lastRetryMs = 10_000;

/**
 * Claims queued runs from the store, oldest first, one at a time, until `stop` or `signal` aborts. A run
 * that throws does not stop the loop: its outcome carries the error, as a KeelError.
 */
export async function workLoop(deps: WorkerDeps, options: WorkOptions): Promise<void> {
  const idleMs = options.idleMs ?? 250;
  const stopped = () => options.signal?.aborted || options.stop?.aborted;
  const signals = [options.signal, options.stop];
  let retryMs = 0;
  let lastOrphanLook = Number.NEGATIVE_INFINITY;
  while (!stopped()) {
    let next: Run | null;
    let store: RunStore;
    try {
      store = await deps.store();
      // A failed look is tried again next time round: it must not stop the worker.
      await deps.expire?.().catch(() => undefined);
      // Orphans are rare: a look every half lease finds one soon enough, without a query per poll. A
      // failed recovery is tried again next look (the run stays orphaned); only a lost store is reported.
      if (Date.now() - lastOrphanLook >= deps.leaseMs() / 2) {
        lastOrphanLook = Date.now();
        await recoverOrphans(store, deps, options).catch((error: unknown) => {
          if (isStoreUnreachable(error)) throw error;
        });
      }
      next = options.orphansOnly
        ? null
        : await store.claimNext({ owner: deps.owner, leaseMs: deps.leaseMs() });
    } catch (error) {
      if (!isStoreUnreachable(error)) throw error;
      retryMs = Math.min(retryMs ? retryMs * 2 : firstRetryMs, lastRetryMs);
      await options.onStoreUnreachable?.(error, retryMs);
      await sleep(retryMs, signals);
      continue;
    }
    if (retryMs) {
      retryMs = 0;
      await options.onStoreReachable?.();
    }
    if (!next) {
      await sleep(idleMs, signals);
      continue;
    }
    const claimed = next;
    await options.onClaim?.(claimed);
    const onEvent = options.onEvent;
    const outcome = await deps
      .execute(claimed, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(onEvent ? { onEvent: (event, seq) => onEvent(event, seq, claimed) } : {}),
      })
      .catch(async (error: unknown) => ({
        run: await store.getRun(claimed.id).catch(() => claimed),
        error: KeelError.is(error)
          ? error
          : new KeelError('SERVER_ERROR', String((error as Error)?.message ?? error)),
      }));
    await options.onOutcome?.(outcome);
  }
}

/** Recovers every orphaned run there is now, unless config turned automatic recovery off. */
async function recoverOrphans(store: RunStore, deps: WorkerDeps, options: WorkOptions): Promise<void> {
  const policy = deps.recovery();
  if (!policy.enabled) return;
  for (;;) {
    const recovered = await recoverOrphan(store, { owner: deps.owner, leaseMs: deps.leaseMs() }, policy);
    if (!recovered) return;
    if (recovered.run.status === 'failed') await deps.afterFailed?.(recovered.run).catch(() => undefined);
    await options.onRecover?.(recovered);
  }
}

/** Waits `ms`, or less if one of the signals aborts. */
function sleep(ms: number, signals: Array<AbortSignal | undefined>): Promise<void> {
  const live = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  return wait(ms, undefined, { signal: AbortSignal.any(live) }).catch(() => undefined);
}
