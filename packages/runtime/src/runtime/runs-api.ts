import { InvalidParamsError } from '../errors/index.ts';
import type { RunMetrics, Timeline } from '../runs/index.ts';
import { buildTimeline, computeMetrics, isOrphaned, nextChange, type RunControls } from '../runs/index.ts';
import {
  type Approval,
  type ApprovalQuery,
  type Artifact,
  type AuditEntry,
  type AuditQuery,
  type BlobStore,
  type Checkpoint,
  finishedStatuses,
  type Run,
  type RunEventRecord,
  type RunQuery,
  type RunStore,
  type Step,
} from '../store/index.ts';

/**
 * Runs in the store, as every surface reads them.
 *
 * @example
 * const [latest] = await runtime.runs.list({ limit: 1 });
 * for await (const record of runtime.runs.watch(latest.id)) console.log(record.seq, record.event.type);
 */
export class RunsApi {
  readonly #store: () => Promise<RunStore>;

  constructor(store: () => Promise<RunStore>) {
    this.#store = store;
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
    return isOrphaned(run);
  }

  /** Duration, usage, retries, tools, gates and artifacts of a run. */
  async metrics(id: string): Promise<RunMetrics> {
    return computeMetrics(await this.#store(), id);
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
}

/** The runtime's audit log: tool calls, file writes and edits, run controls and approvals. */
export class AuditApi {
  readonly #store: () => Promise<RunStore>;

  constructor(store: () => Promise<RunStore>) {
    this.#store = store;
  }

  /** Newest first, with the total that matched; `limit` defaults to 50. */
  async list(query: AuditQuery = {}): Promise<{ entries: AuditEntry[]; total: number }> {
    return (await this.#store()).listAudit(query);
  }
}

/** Approvals runs wait on; deciding the last one puts the run back in the queue. */
export class ApprovalsApi {
  readonly #store: () => Promise<RunStore>;
  readonly #controls: () => Promise<RunControls>;

  constructor(store: () => Promise<RunStore>, controls: () => Promise<RunControls>) {
    this.#store = store;
    this.#controls = controls;
  }

  /** Newest first. */
  async list(query: ApprovalQuery = {}): Promise<Approval[]> {
    return (await this.#store()).listApprovals(query);
  }

  async get(id: string): Promise<Approval> {
    return (await this.#store()).getApproval(id);
  }

  async approve(
    id: string,
    options: { reason?: string; by?: string } = {},
  ): Promise<{ approval: Approval; run: Run }> {
    return (await this.#controls()).decide(id, {
      status: 'approved',
      reason: options.reason ?? null,
      by: options.by ?? null,
    });
  }

  /**
   * Answers a question the run asked (`interaction_request` with kind `question`); the answer is the
   * `question` tool's result when the run continues.
   */
  async answer(
    id: string,
    answer: string,
    options: { by?: string } = {},
  ): Promise<{ approval: Approval; run: Run }> {
    if (!answer.trim()) throw new InvalidParamsError('answer must not be empty', { approval_id: id });
    return (await this.#controls()).decide(id, {
      status: 'answered',
      reason: answer,
      by: options.by ?? null,
    });
  }

  async reject(
    id: string,
    options: { reason?: string; by?: string } = {},
  ): Promise<{ approval: Approval; run: Run }> {
    return (await this.#controls()).decide(id, {
      status: 'rejected',
      reason: options.reason ?? null,
      by: options.by ?? null,
    });
  }
}

/** Artifacts: metadata from the store, payloads from the blob store. */
export class ArtifactsApi {
  readonly #opened: () => Promise<{ store: RunStore; blobs: BlobStore }>;

  constructor(opened: () => Promise<{ store: RunStore; blobs: BlobStore }>) {
    this.#opened = opened;
  }

  async get(id: string): Promise<Artifact> {
    return (await this.#opened()).store.getArtifact(id);
  }

  /** The payload of an artifact. */
  async read(id: string): Promise<Uint8Array> {
    const { store, blobs } = await this.#opened();
    return blobs.get((await store.getArtifact(id)).uri);
  }
}
