import { KeelError } from '../errors/index.ts';
import type { EventManager, RuntimeEvent } from '../events/index.ts';
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
  /** The runtime's clock in epoch ms: leases, the time budget and a sub-agent's deadline go by it. */
  now?: () => number;
  /** Told where each execution left the run (sub-agents: a child's end wakes its parent; see agents/). */
  afterExecution?: (run: Run) => Promise<void>;
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
    lsp: deps.lsp,
    agents: deps.agents,
  }).catch(async (error) => {
    const failed = await store.transition(runId, {
      from: ['running'],
      to: 'failed',
      owner: deps.owner,
      error: KeelError.is(error) ? error.toJSON() : { code: 'SERVER_ERROR', message: String(error) },
    });
    await deps.afterExecution?.(failed).catch(() => undefined);
    throw error;
  });
  let seq = claimed.last_seq;
  const deliver = async (event: RuntimeEvent, at: number) => {
    seq = at;
    await deps.events.emit(event);
    await options.onEvent?.(event, at);
  };
  const outcome = await executeRun(claimed, {
    store,
    blobs: deps.blobs,
    owner: deps.owner,
    leaseMs: deps.leaseMs,
    setup,
    ...(deps.now ? { now: deps.now } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    deliver: async (event, at) => {
      // Events others appended meanwhile (a sub-agent's `agent_finished`) are delivered first, in order.
      if (at > seq + 1) {
        for (const record of await store.listEvents(runId, { after: seq, limit: at - seq - 1 })) {
          await deliver(record.event as unknown as RuntimeEvent, record.seq);
        }
      }
      await deliver(event, at);
    },
  });
  if (finishedStatuses.includes(outcome.run.status)) requestKeys.delete(runId);
  await deps.afterExecution?.(outcome.run).catch(() => undefined);
  return outcome;
}
