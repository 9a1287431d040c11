import { setTimeout as wait } from 'node:timers/promises';
import { KeelError } from '../errors/index.ts';
import type { ExecutionOutcome } from '../runs/index.ts';
import type { Run, RunStore } from '../store/index.ts';
import type { DriveOptions, WorkOptions } from './runtime-options.ts';

export interface WorkerDeps {
  store: RunStore;
  /** This worker's lease owner id. */
  owner: string;
  leaseMs(): number;
  /** Executes a run this worker has claimed. */
  execute(run: Run, options: DriveOptions): Promise<ExecutionOutcome>;
  /** Expires approvals past their interaction timeout, so their runs join the queue. */
  expire?(): Promise<unknown>;
}

/**
 * Claims queued runs from the store, oldest first, one at a time, until `stop` or `signal` aborts. A run
 * that throws does not stop the loop: its outcome carries the error, as a KeelError.
 */
export async function workLoop(deps: WorkerDeps, options: WorkOptions): Promise<void> {
  const { store } = deps;
  const idleMs = options.idleMs ?? 250;
  const stopped = () => options.signal?.aborted || options.stop?.aborted;
  while (!stopped()) {
    // A failed look is tried again next time round: it must not stop the worker.
    await deps.expire?.().catch(() => undefined);
    const next = await store.claimNext({ owner: deps.owner, leaseMs: deps.leaseMs() });
    if (!next) {
      await sleep(idleMs, [options.signal, options.stop]);
      continue;
    }
    await options.onClaim?.(next);
    const onEvent = options.onEvent;
    const outcome = await deps
      .execute(next, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(onEvent ? { onEvent: (event, seq) => onEvent(event, seq, next) } : {}),
      })
      .catch(async (error: unknown) => ({
        run: await store.getRun(next.id).catch(() => next),
        error: KeelError.is(error)
          ? error
          : new KeelError('SERVER_ERROR', String((error as Error)?.message ?? error)),
      }));
    await options.onOutcome?.(outcome);
  }
}

/** Waits `ms`, or less if one of the signals aborts. */
function sleep(ms: number, signals: Array<AbortSignal | undefined>): Promise<void> {
  const live = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  return wait(ms, undefined, { signal: AbortSignal.any(live) }).catch(() => undefined);
}
