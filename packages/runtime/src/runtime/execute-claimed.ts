import { KeelError } from '../errors/index.ts';
import type { EventManager } from '../events/index.ts';
import { type ExecutionOutcome, executeRun } from '../runs/index.ts';
import { type BlobStore, finishedStatuses, type Run, type RunStore } from '../store/index.ts';
import { type RunSetupDeps, resolveRunSetup } from './run-setup.ts';
import type { DriveOptions } from './runtime-options.ts';

export interface ClaimedRunDeps extends Omit<RunSetupDeps, 'store' | 'requestKey'> {
  store: RunStore;
  blobs: BlobStore;
  /** This worker's lease owner id. */
  owner: string;
  leaseMs: number;
  /** The runtime's event manager: every event goes through it before the caller's `onEvent`. */
  events: EventManager;
  /** Per-request model keys of runs started in this process; a run's is forgotten once it is final. */
  requestKeys: Map<string, string>;
}

/**
 * Executes a run this worker has claimed, in this process. A run whose configuration is broken (no model,
 * an unknown skill, a bad sandbox setting) fails with the reason instead of staying claimed.
 */
export async function executeClaimed(
  claimed: Run,
  deps: ClaimedRunDeps,
  options: DriveOptions,
): Promise<ExecutionOutcome> {
  const { store, requestKeys } = deps;
  const runId = claimed.id;
  const setup = await resolveRunSetup(claimed, {
    options: deps.options,
    env: deps.env,
    runtimeDir: deps.runtimeDir,
    sessions: deps.sessions,
    store,
    requestKey: requestKeys.get(runId),
    mcp: deps.mcp,
  }).catch(async (error) => {
    await store.transition(runId, {
      from: ['running'],
      to: 'failed',
      owner: deps.owner,
      error: KeelError.is(error) ? error.toJSON() : { code: 'SERVER_ERROR', message: String(error) },
    });
    throw error;
  });
  let seq = claimed.last_seq;
  const outcome = await executeRun(claimed, {
    store,
    blobs: deps.blobs,
    owner: deps.owner,
    leaseMs: deps.leaseMs,
    setup,
    ...(options.signal ? { signal: options.signal } : {}),
    deliver: async (event) => {
      seq += 1;
      await deps.events.emit(event);
      await options.onEvent?.(event, seq);
    },
  });
  if (finishedStatuses.includes(outcome.run.status)) requestKeys.delete(runId);
  return outcome;
}
