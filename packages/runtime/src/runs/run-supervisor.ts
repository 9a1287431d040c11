import { BudgetExceededError, CancelledError, type KeelError } from '../errors/index.ts';
import type { RunStore } from '../store/index.ts';

export interface SupervisorOptions {
  store: RunStore;
  runId: string;
  /** This worker's lease owner id. */
  owner: string;
  leaseMs: number;
  /** The run's time budget in ms (0: none). */
  maxDurationMs: number;
  /** Time the run already spent in earlier executions (from its checkpoint). */
  elapsedBase: number;
  /** The caller's cancellation. */
  signal?: AbortSignal | undefined;
  /**
   * A wall-clock deadline (epoch ms) after which the run stops with TIMEOUT, however its time was spent
   * (a sub-agent's timeout); a deadline already past stops it at once.
   */
  deadline?: { at: number; error: () => KeelError } | undefined;
  now: () => number;
}

// How often the worker looks for control requests (cancel, pause) from other processes.
const controlPollMs = 200;
const maxTimerMs = 2 ** 31 - 1;

/**
 * Watches over one execution of a claimed run: keeps its lease, reads the control requests any process
 * writes, and enforces its time budget. Everything that must stop the run comes out as one abort signal
 * (the caller's, a cancel request, the time budget, a lost lease), with a reason saying which; a pause
 * request is only noted, since a run pauses at its next step boundary.
 */
export class RunSupervisor {
  readonly signal: AbortSignal;
  readonly #options: SupervisorOptions;
  readonly #stop = new AbortController();
  readonly #startedAt: number;
  readonly #beat: ReturnType<typeof setInterval>;
  readonly #timeBudget: ReturnType<typeof setTimeout> | undefined;
  readonly #deadline: ReturnType<typeof setTimeout> | undefined;
  #pauseRequested = false;
  #leaseLost = false;
  #lastRenew: number;

  /** Starts watching at once: call `stop()` when the execution ends. */
  constructor(options: SupervisorOptions) {
    this.#options = options;
    const { now, maxDurationMs, elapsedBase, deadline } = options;
    this.#startedAt = now();
    this.signal = options.signal ? AbortSignal.any([options.signal, this.#stop.signal]) : this.#stop.signal;
    this.#lastRenew = now();
    this.#beat = setInterval(() => void this.#tick().catch(() => undefined), controlPollMs);
    this.#beat.unref();
    // The timers stop the run on time; each beat also reads `now` (see #checkClock).
    const remaining = maxDurationMs > 0 ? maxDurationMs - elapsedBase : 0;
    this.#timeBudget =
      maxDurationMs > 0 ? setTimeout(() => this.#checkClock(true), Math.max(remaining, 0)) : undefined;
    // Beyond setTimeout's range (about 24.8 days) a delay would fire at once: such a deadline is left to the beat.
    const untilDeadline = deadline ? Math.max(deadline.at - now(), 0) : Number.POSITIVE_INFINITY;
    this.#deadline =
      deadline && untilDeadline <= maxTimerMs
        ? setTimeout(() => this.#stop.abort(deadline.error()), untilDeadline)
        : undefined;
  }

  /** Whether someone asked for the run to pause (it does at its next step boundary). */
  get pauseRequested(): boolean {
    return this.#pauseRequested;
  }

  /** Whether another worker took the run's lease: this execution must not write the run's state any more. */
  get leaseLost(): boolean {
    return this.#leaseLost;
  }

  /** The run's time so far, earlier executions included: what checkpoints and the time budget count. */
  elapsedMs(): number {
    return this.#options.elapsedBase + (this.#options.now() - this.#startedAt);
  }

  /** Acts on cancel and pause requests written by any process. */
  async takeControls(): Promise<void> {
    for (const kind of await this.#options.store.takeControls(this.#options.runId)) {
      if (kind === 'cancel') this.#stop.abort(new CancelledError());
      if (kind === 'pause') this.#pauseRequested = true;
    }
  }

  /** Stops the heartbeat and the time budget. */
  stop(): void {
    clearInterval(this.#beat);
    if (this.#timeBudget) clearTimeout(this.#timeBudget);
    if (this.#deadline) clearTimeout(this.#deadline);
  }

  /**
   * Stops the run once its time budget or its deadline has passed by `now`: the timers measure time on
   * this process's monotonic clock, while `now` is the runtime's (a test's fake clock, or a wall clock that
   * jumped on waking from sleep). With `budgetDue`, the time budget's timer fired: it is over, whatever
   * `now` says.
   */
  #checkClock(budgetDue = false): void {
    const { maxDurationMs, deadline, now } = this.#options;
    if (maxDurationMs > 0 && (budgetDue || this.elapsedMs() >= maxDurationMs)) {
      this.#stop.abort(
        new BudgetExceededError(`Time budget exceeded: the run took more than ${maxDurationMs} ms.`, {
          budget: 'max_duration_ms',
          limit: maxDurationMs,
          used: this.elapsedMs(),
        }),
      );
    }
    if (deadline && now() >= deadline.at) this.#stop.abort(deadline.error());
  }

  /** Renews the lease every third of its length, and reads control requests every time. */
  async #tick(): Promise<void> {
    this.#checkClock();
    const { store, runId, owner, leaseMs, now } = this.#options;
    if (now() - this.#lastRenew >= leaseMs / 3) {
      this.#lastRenew = now();
      if (!(await store.renewLease(runId, { owner, leaseMs }))) {
        this.#leaseLost = true;
        this.#stop.abort(new CancelledError('This worker lost the run’s lease to another worker.'));
        return;
      }
    }
    await this.takeControls();
  }
}
