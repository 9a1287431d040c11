import { CancelledError, KeelError } from '../errors/index.ts';
import type { EventManager, RuntimeEvent } from '../events/index.ts';
import { type ExecutionOutcome, nextChange } from '../runs/index.ts';
import { finishedStatuses, type Run, type RunStore } from '../store/index.ts';
import type { DriveOptions, FollowOptions } from './runtime-options.ts';

export interface FollowDeps {
  store: RunStore;
  /** The runtime's event manager: every event delivered here goes through it first. */
  events: EventManager;
  /** Claims and executes the run in this process (null: another worker claimed it first). */
  drive(runId: string, options: DriveOptions): Promise<ExecutionOutcome | null>;
  /** This runtime only queues (RuntimeOptions.queueOnly): a queued run is waited on, not driven. */
  queueOnly?: boolean;
  /** Asks for the run to be cancelled, from any process. */
  cancel(runId: string): Promise<Run>;
  /** Expires the run's approvals past their interaction timeout (RunControls.expireOverdue). */
  expire?(runId: string): Promise<{ expired: unknown[]; nextInMs: number | null }>;
}

export interface FollowRunOptions extends FollowOptions {
  /**
   * After `signal` aborts and the run is asked to cancel: follow it on until it is final (`runtime.follow`),
   * instead of throwing CANCELLED at once (`runtime.run`).
   */
  untilFinal?: boolean;
}

/**
 * Drives a run until it is final: executes it here whenever it is queued, and otherwise (waiting for a
 * human, paused, or running in another process) follows it in the store, delivering its events. Returns
 * what `run()` returns for the final run, or throws its error.
 */
export async function followRun(
  runId: string,
  deps: FollowDeps,
  options: FollowRunOptions,
): Promise<unknown> {
  const { store } = deps;
  let delivered = options.after ?? (await store.getRun(runId)).last_seq;
  let signal = options.signal;
  const onEvent = async (event: RuntimeEvent, seq: number) => {
    if (seq <= delivered) return;
    delivered = seq;
    await options.onEvent?.(event, seq);
  };
  for (;;) {
    let run = await store.getRun(runId);
    if (run.last_seq > delivered) {
      for (const record of await store.listEvents(runId, { after: delivered })) {
        await deps.events.emit(record.event as unknown as RuntimeEvent);
        await onEvent(record.event as unknown as RuntimeEvent, record.seq);
      }
      run = await store.getRun(runId);
    }
    if (finishedStatuses.includes(run.status) && run.last_seq <= delivered) return finalResult(run);
    // Unless cancelled meanwhile (it may have waited for a slot): then the run is asked to cancel, below.
    if (run.status === 'queued' && !deps.queueOnly && !signal?.aborted) {
      const outcome = await deps.drive(runId, { ...(signal ? { signal } : {}), onEvent });
      if (outcome?.error && finishedStatuses.includes(outcome.run.status)) throw outcome.error;
      // Ended here with every event delivered: its record is the final one, not read again (a result
      // holds every tool output of the run).
      const ended = outcome?.run;
      if (ended && finishedStatuses.includes(ended.status) && ended.last_seq <= delivered) {
        return finalResult(ended);
      }
      continue;
    }
    if (signal?.aborted) {
      await deps.cancel(runId).catch(() => undefined);
      if (!options.untilFinal) throw new CancelledError();
      // Asked once; whoever executes it stops it, and its end is followed here.
      signal = undefined;
      continue;
    }
    let waitMs = 1000;
    if (run.status === 'waiting' && deps.expire) {
      // Whoever follows a waiting run enforces its interaction timeout: nobody else may be looking.
      const { expired, nextInMs } = await deps.expire(runId);
      if (expired.length > 0) continue;
      if (nextInMs !== null) waitMs = Math.min(waitMs, nextInMs + 1);
    }
    await nextChange(store, runId, signal, waitMs);
  }
}

/** What `run()` returns for a final run, or the error it throws. */
function finalResult(run: Run): unknown {
  if (run.status === 'succeeded') return run.result;
  const error = run.error ?? { code: 'SERVER_ERROR', message: `Run '${run.id}' ended ${run.status}.` };
  if (run.status === 'cancelled') throw new CancelledError(error.message);
  throw new KeelError(error.code as never, error.message, error.details);
}
