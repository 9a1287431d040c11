import type { RunMetrics, Timeline } from '../runs/index.ts';
import { buildTimeline, computeMetrics, isOrphaned, nextChange, RunControls } from '../runs/index.ts';
import {
  type Artifact,
  type Checkpoint,
  finishedStatuses,
  type Run,
  type RunEventRecord,
  type RunEventText,
  type RunQuery,
  type RunStore,
  type Step,
} from '../store/index.ts';
import { RunTails } from './run-tails.ts';

/**
 * Runs in the store, as every surface reads and controls them. The controls work from any process sharing
 * the store: they write the request and leave the execution to whichever worker holds or claims the run.
 *
 * @example
 * const [latest] = await runtime.runs.list({ limit: 1 });
 * for await (const record of runtime.runs.watch(latest.id)) console.log(record.seq, record.event.type);
 */
export class RunsApi {
  readonly #store: () => Promise<RunStore>;
  readonly #tails = new RunTails();
  readonly #now: () => number;

  /** `now` is the runtime's clock in epoch ms: leases and interaction timeouts are judged by it. */
  constructor(store: () => Promise<RunStore>, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** Throws RUN_NOT_FOUND for an unknown id. */
  async get(id: string): Promise<Run> {
    return (await this.#store()).getRun(id);
  }

  /** Newest first; page with `before: <last id>`. */
  async list(query: RunQuery = {}): Promise<Run[]> {
    return (await this.#store()).listRuns(query);
  }

  /** Stored events after the cursor `after` (default 0). */
  async events(id: string, options: { after?: number; limit?: number } = {}): Promise<RunEventRecord[]> {
    const store = await this.#store();
    await store.getRun(id);
    return store.listEvents(id, options);
  }

  async steps(id: string): Promise<Step[]> {
    const store = await this.#store();
    await store.getRun(id);
    return store.listSteps(id);
  }

  async checkpoints(id: string): Promise<Checkpoint[]> {
    const store = await this.#store();
    await store.getRun(id);
    return store.listCheckpoints(id);
  }

  async artifacts(id: string): Promise<Artifact[]> {
    const store = await this.#store();
    await store.getRun(id);
    return store.listArtifacts(id);
  }

  /** Steps, checkpoints, approvals and artifacts in time order. */
  async timeline(id: string): Promise<Timeline> {
    return buildTimeline(await this.#store(), id);
  }

  /** Whether a `running` run lost its worker (lease expired, or its process on this host died). */
  isOrphaned(run: Run): boolean {
    return isOrphaned(run, this.#now());
  }

  /** Duration, usage, retries, tools, gates and artifacts of a run. */
  async metrics(id: string): Promise<RunMetrics> {
    return computeMetrics(await this.#store(), id, this.#now());
  }

  /**
   * The run's events from the cursor `after`, then live ones as they are stored (from any process),
   * until the run is final and every event was yielded, or `signal` aborts.
   */
  async *watch(
    id: string,
    options: { after?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<RunEventRecord> {
    const store = await this.#store();
    let after = options.after ?? 0;
    for (;;) {
      const run = await store.getRun(id);
      const page = await store.listEvents(id, { after });
      for (const record of page) {
        yield record;
        after = record.seq;
      }
      if (page.length > 0) continue;
      if (finishedStatuses.includes(run.status) && after >= run.last_seq) return;
      if (options.signal?.aborted) return;
      await nextChange(store, id, options.signal);
    }
  }

  /**
   * The run's events from the cursor `after`, a page at a time (up to `limit`, default 1000), each event
   * as its stored JSON text; then, as events are stored (from any process), pages of the new ones; until
   * the run is final and every event was yielded, or `signal` aborts. Only one page is held at a time,
   * however long the run, and nothing is parsed: this is how the surfaces replay and follow a run (SSE,
   * WebSocket, `keel runs watch`).
   */
  async *watchPages(
    id: string,
    options: { after?: number; limit?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<RunEventText[]> {
    const store = await this.#store();
    const limit = options.limit ?? 1000;
    let after = options.after ?? 0;
    await store.getRun(id);
    // The run's followers in this process share their reads (run-tails.ts); pages are shared, read-only.
    const tail = this.#tails.follow(store, id);
    try {
      let stale = false;
      for (;;) {
        if (options.signal?.aborted) return;
        // Waiting starts before looking, so a change made in between is not missed.
        const change = tail.next();
        const page = await tail.events(after, limit, stale);
        if (page.length > 0) {
          after = page.at(-1)!.seq;
          stale = false;
          yield page;
          continue;
        }
        const run = await tail.run();
        // More events than the (possibly shared) page showed: read them afresh at once.
        stale = run.last_seq > after;
        if (stale) continue;
        if (finishedStatuses.includes(run.status)) return;
        await tail.until(change, options.signal);
      }
    } finally {
      tail.release();
    }
  }

  /** Asks a running run to pause at its next step boundary (a queued one pauses at once). */
  async pause(id: string): Promise<Run> {
    return (await this.#controls()).pause(id);
  }

  /** Puts a paused or waiting run back in the queue; `drive` or a worker continues it. */
  async resume(id: string): Promise<Run> {
    return (await this.#controls()).resume(id);
  }

  /** Asks for the run to be cancelled: a worker holding it stops at once; one nobody holds is cancelled here. */
  async cancel(id: string): Promise<Run> {
    return (await this.#controls()).cancel(id);
  }

  /** Queues a failed or cancelled run again, from its last checkpoint. */
  async retry(id: string): Promise<Run> {
    return (await this.#controls()).retry(id);
  }

  /** Queues a run whose worker died (lease expired or process gone), from its last checkpoint. */
  async recover(id: string): Promise<Run> {
    return (await this.#controls()).recover(id);
  }

  /** A new queued run from a checkpoint of any run, with the history up to it. */
  async fork(checkpointId: string): Promise<Run> {
    return (await this.#controls()).fork(checkpointId);
  }

  async #controls(): Promise<RunControls> {
    return new RunControls(await this.#store(), this.#now);
  }
}
