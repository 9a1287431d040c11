import { type AgentsApi, settleEndedRun } from '../agents/index.ts';
import type { RuntimeEnv } from '../config/index.ts';
import { KeelError } from '../errors/index.ts';
import type { EventManager } from '../events/index.ts';
import type { McpClientPool } from '../mcp/index.ts';
import { defaultRecoveryPolicy, type ExecutionOutcome, RunControls } from '../runs/index.ts';
import type { Run, SessionStore } from '../store/index.ts';
import type { LspServers } from '../tools/index.ts';
import { executeClaimed } from './execute-claimed.ts';
import { ExecutionSlots } from './execution-slots.ts';
import { type FollowRunOptions, followRun } from './follow-run.ts';
import type { DriveOptions, RuntimeOptions, WorkOptions } from './runtime-options.ts';
import type { RuntimeStores } from './runtime-stores.ts';
import { workLoop } from './worker-loop.ts';

const defaultLeaseMs = 15_000;

export interface RunDriverDeps {
  options: RuntimeOptions;
  env: RuntimeEnv;
  runtimeDir: string;
  sessions: SessionStore;
  stores: RuntimeStores;
  mcp: McpClientPool;
  lsp: LspServers;
  /** The runtime's event manager: every event goes through it before a caller's `onEvent`. */
  events: EventManager;
  /** Per-request model keys of runs started in this process. */
  requestKeys: Map<string, string>;
  /** This runtime's identity as a worker: what its leases record. */
  workerId: string;
  /** The runtime's sub-agents (made after the driver, since they follow runs through it). */
  agents(): AgentsApi;
  /** Asks for a run to be cancelled, from any process (runtime.runs.cancel). */
  cancel(runId: string): Promise<Run>;
  /** The runtime's clock in epoch ms (RuntimeOptions.now, or the wall clock). */
  now(): number;
}

/**
 * How one runtime executes runs in its own process: claiming a run with a lease and executing it
 * (`drive`), working the queue (`work`), and following a run to its end, executing it whenever it is
 * queued (`follow`: what `run`, `stream` and a background `start` do).
 */
export class RunDriver {
  readonly #deps: RunDriverDeps;
  readonly #slots: ExecutionSlots | undefined;

  constructor(deps: RunDriverDeps) {
    this.#deps = deps;
    const { maxRunning } = deps.options;
    if (maxRunning !== undefined && !(Number.isInteger(maxRunning) && maxRunning > 0)) {
      throw new KeelError('CONFIG_ERROR', `maxRunning must be a whole number above 0, not ${maxRunning}.`);
    }
    this.#slots = maxRunning === undefined ? undefined : new ExecutionSlots(maxRunning);
  }

  /**
   * Claims a queued run and executes it here; null when another worker claimed it first (or `signal`
   * aborted while it waited for a slot: RuntimeOptions.maxRunning).
   */
  async drive(runId: string, options: DriveOptions = {}): Promise<ExecutionOutcome | null> {
    const { store } = await this.#deps.stores.opened();
    if (this.#deps.options.queueOnly) {
      await store.getRun(runId); // an unknown run is still RUN_NOT_FOUND
      return null;
    }
    // The slot is taken before the claim: a run waiting for one stays queued, for any worker to take.
    const giveBack = this.#slots ? await this.#slots.take(options.signal) : () => {};
    if (!giveBack) return null;
    try {
      const claimed = await store.claimRun(runId, { owner: this.#deps.workerId, leaseMs: this.#leaseMs() });
      if (!claimed) {
        // An unknown run is RUN_NOT_FOUND, not null.
        await store.getRun(runId);
        return null;
      }
      return await this.#execute(claimed, options);
    } finally {
      // Ended, waiting for a human or paused: the run no longer executes here.
      giveBack();
    }
  }

  /** Claims queued runs one at a time until `stop` or `signal` aborts (see workLoop). */
  async work(options: WorkOptions = {}): Promise<void> {
    await workLoop(
      {
        store: async () => (await this.#deps.stores.opened()).store,
        owner: this.#deps.workerId,
        leaseMs: () => this.#leaseMs(),
        execute: (run, driveOptions) => this.#execute(run, driveOptions),
        expire: async () => (await this.controls()).expireOverdue(),
        recovery: () => ({ ...defaultRecoveryPolicy, ...this.#deps.stores.configRecovery }),
        afterFailed: async (run) => {
          await settleEndedRun((await this.#deps.stores.opened()).store, run);
          tell(this.#deps.options.onRunEnded, run);
        },
      },
      options,
    );
  }

  /** Drives a run until it is final, here or by following it in the store (see followRun). */
  async follow(runId: string, options: FollowRunOptions): Promise<unknown> {
    return followRun(
      runId,
      {
        store: (await this.#deps.stores.opened()).store,
        events: this.#deps.events,
        drive: (id, driveOptions) => this.drive(id, driveOptions),
        queueOnly: this.#deps.options.queueOnly === true,
        cancel: (id) => this.#deps.cancel(id),
        expire: async (id) => {
          // A run parked on a sub-agent whose end could not wake it (a crash between) goes on from here.
          await this.#deps
            .agents()
            .wakeIfReady(id)
            .catch(() => false);
          return (await this.controls()).expireOverdue(id);
        },
      },
      options,
    );
  }

  /** The run controls over this runtime's store, on its clock. */
  async controls(): Promise<RunControls> {
    return new RunControls((await this.#deps.stores.opened()).store, this.#deps.now);
  }

  /** Executes a run this worker has claimed (see executeClaimed). */
  async #execute(claimed: Run, options: DriveOptions): Promise<ExecutionOutcome> {
    const deps = this.#deps;
    const { store, blobs } = await deps.stores.opened();
    return executeClaimed(
      claimed,
      {
        options: deps.options,
        env: deps.env,
        runtimeDir: deps.runtimeDir,
        sessions: deps.sessions,
        mcp: deps.mcp,
        lsp: deps.lsp,
        store,
        blobs,
        owner: deps.workerId,
        leaseMs: this.#leaseMs(),
        events: deps.events,
        requestKeys: deps.requestKeys,
        agents: deps.agents(),
        now: deps.now,
        afterExecution: async (run) => {
          await settleEndedRun(store, run);
          tell(deps.options.onRunEnded, run);
        },
      },
      options,
    );
  }

  #leaseMs(): number {
    return this.#deps.options.leaseMs ?? this.#deps.stores.configLeaseMs ?? defaultLeaseMs;
  }
}

/** An embedder's hook, told of an ended run: its failure must not fail the run's bookkeeping. */
function tell(hook: ((run: Run) => void) | undefined, run: Run): void {
  try {
    hook?.(run);
  } catch {
    // The embedder's own business.
  }
}
