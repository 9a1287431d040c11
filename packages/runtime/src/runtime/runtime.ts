import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { setTimeout as wait } from 'node:timers/promises';
import { loadConfig, type RuntimeEnv, readEnv, resolveModelSettings } from '../config/index.ts';
import { CancelledError, InvalidParamsError, KeelError, StoreError, ToolError } from '../errors/index.ts';
import { EventManager, type RuntimeEvent } from '../events/index.ts';
import { McpClientPool, type McpServerConfig } from '../mcp/index.ts';
import type { RetryPolicy } from '../model/index.ts';
import {
  type ExecutionOutcome,
  executeRun,
  newWorkerId,
  nextChange,
  RunControls,
  toolAuditor,
} from '../runs/index.ts';
import { createSandbox } from '../sandbox/index.ts';
import { skillsForRun } from '../skills/index.ts';
import {
  type BlobStore,
  finishedStatuses,
  type JsonObject,
  type JsonValue,
  openSqlite,
  type Run,
  type RunStore,
  SessionStore,
  type UserInput,
} from '../store/index.ts';
import {
  createCodingTools,
  createCommandPolicy,
  createPathGuard,
  FileHistory,
  type ToolContext,
  type ToolRegistry,
} from '../tools/index.ts';
import { agentWorkflow, parseWorkflow, type Workflow } from '../workflow/index.ts';
import { AsyncQueue } from './async-queue.ts';
import { openStores } from './open-store.ts';
import { buildRunEnvironment } from './run-environment.ts';
import { parseRunRequest, type RunRequest } from './run-request.ts';
import type { RunResult } from './run-result.ts';
import { ApprovalsApi, ArtifactsApi, AuditApi, RunsApi } from './runs-api.ts';
import { SkillsApi } from './skills-api.ts';
import { normaliseWorkdir } from './workdir.ts';

/** How to build a runtime. Every field is optional. */
export interface RuntimeOptions {
  /** The user's runtime directory, holding the store and global config (default RUNTIME_HOME or ~/.runtime). */
  runtimeDir?: string;
  /**
   * The directory whose configuration picks the store (project `.runtime/config.json` over the global one);
   * default the current directory. Every surface working on the same directory finds the same runs.
   */
  workdir?: string;
  /** A store to use instead of the configured one (it is not closed by `close()`). */
  store?: RunStore;
  /** A blob store for artifact payloads instead of the configured one. */
  blobs?: BlobStore;
  /** Default model name, below a request's own. */
  model?: string;
  /** Default chat-completions base URL, below a request's own. */
  modelBaseUrl?: string;
  /** The embedding caller's model key: the lowest-priority source (spec section 2). */
  apiKey?: string;
  enableThinking?: boolean;
  thinkingBudget?: number;
  /** How model calls are retried (default: 4 attempts, 1 s doubling). */
  retry?: Partial<RetryPolicy>;
  /** Tools whose calls need a human's approval, on top of config `security.require_approval`. */
  requireApproval?: string[];
  /** MCP servers on top of config `mcp.servers` (an embedder's own settings); one replaces a configured one of its name. */
  mcpServers?: McpServerConfig[];
  /** How long this worker's claim on a run lasts without renewal (default config `runs.lease_ms` or 15 s). */
  leaseMs?: number;
  /** Environment to read instead of process.env. */
  env?: NodeJS.ProcessEnv;
  /** Tools to offer instead of the built-in coding tools. */
  tools?: ToolRegistry;
  fetch?: typeof fetch;
  now?: () => Date;
}

export interface RunOptions {
  /** Cancels the run: the model stream and running tools stop, and a `cancelled` event is emitted. */
  signal?: AbortSignal;
  /** Receives every event of this run, after the runtime's own event manager. */
  onEvent?: (event: RuntimeEvent) => void | Promise<void>;
  /** A workflow to run instead of the plain agent (see `Workflow`); `{{input.prompt}}` is the request's prompt. */
  workflow?: Workflow;
}

export interface DriveOptions {
  signal?: AbortSignal;
  onEvent?: (event: RuntimeEvent, seq: number) => void | Promise<void>;
}

export interface WorkOptions {
  /** Stops taking runs and cancels the run in hand. */
  signal?: AbortSignal;
  /** Stops taking runs; the run in hand goes on to its end or its next wait. */
  stop?: AbortSignal;
  /** Wait between looks at an empty queue (default 250 ms). */
  idleMs?: number;
  /** This worker now holds `run` (the claim is atomic: no other worker has it). */
  onClaim?: (run: Run) => void | Promise<void>;
  /** Each event of the run in hand, after it is stored. */
  onEvent?: (event: RuntimeEvent, seq: number, run: Run) => void | Promise<void>;
  /** Where the run in hand stopped: ended, waiting for a human, paused, or failed. */
  onOutcome?: (outcome: ExecutionOutcome) => void | Promise<void>;
}

const defaultLeaseMs = 15_000;

/**
 * The one execution path every surface calls: validates a request, records the run, and hands it to the
 * workflow scheduler, which checkpoints at every step boundary. Any runtime on the same store can list,
 * watch, control, approve and continue the runs of any other.
 *
 * @example
 * const runtime = createRuntime({ model: 'gpt-4.1' });
 * const result = await runtime.run({ prompt: 'List the TODOs in src', workdir: '.' });
 * console.log(result.output);
 */
export class Runtime {
  readonly events = new EventManager();
  readonly sessions: SessionStore;
  readonly runtimeDir: string;
  /** This runtime's identity as a worker (`host:pid:random`): what its leases record. */
  readonly workerId = newWorkerId();
  /** Runs in the store: get, list, events, steps, checkpoints, timeline, metrics, watch. */
  readonly runs: RunsApi;
  /** Approvals and questions runs wait on: list, approve, reject. */
  readonly approvals: ApprovalsApi;
  /** Artifacts of runs: metadata and payloads. */
  readonly artifacts: ArtifactsApi;
  /** The audit log: tool calls, file writes and edits, run controls, approval decisions. */
  readonly audit: AuditApi;
  /** Skills: list, get (with documentation), enable, disable. */
  readonly skills: SkillsApi;
  readonly #options: RuntimeOptions;
  readonly #env: RuntimeEnv;
  readonly #db: DatabaseSync;
  #stores: Promise<{ store: RunStore; blobs: BlobStore; owned: boolean }> | undefined;
  /** Per-request model keys of runs started here: used by this process only, never stored. */
  readonly #requestKeys = new Map<string, string>();
  /** File history of `callTool` per workdir, so `POST /tool` undo_file can undo an earlier call's write. */
  readonly #toolHistories = new Map<string, FileHistory>();
  /** Connections to MCP servers, opened when a run first uses one and closed by `close()`. */
  readonly #mcp: McpClientPool;
  #closed = false;
  #configLeaseMs: number | undefined;

  constructor(options: RuntimeOptions = {}) {
    this.#options = options;
    this.#env = readEnv(options.env);
    this.#mcp = new McpClientPool({ env: options.env ?? process.env });
    this.runtimeDir = options.runtimeDir ?? this.#env.home;
    this.#db = openDatabase(join(this.runtimeDir, 'keel.db'));
    this.sessions = new SessionStore(this.#db, options.now);
    this.runs = new RunsApi(() => this.store());
    this.approvals = new ApprovalsApi(
      () => this.store(),
      () => this.#controls(),
    );
    this.artifacts = new ArtifactsApi(() => this.#opened());
    this.audit = new AuditApi(() => this.store());
    this.skills = new SkillsApi({
      runtimeDir: this.runtimeDir,
      envDirs: this.#env.skillDirs,
      defaultWorkdir: options.workdir,
    });
  }

  /** The durable store this runtime uses (opened on first use from the configuration). */
  async store(): Promise<RunStore> {
    return (await this.#opened()).store;
  }

  /** Runs to the end and returns the result; throws a KeelError on failure or cancellation. */
  async run(request: RunRequest, options: RunOptions = {}): Promise<RunResult> {
    const run = await this.start(request, {
      ...(options.workflow ? { workflow: options.workflow } : {}),
      execute: false,
    });
    const final = await this.#runToEnd(run.id, options);
    return final as RunResult;
  }

  /**
   * Streams the run's events: `session_start` first, then `done`, `error` or `cancelled` last.
   * Invalid requests and unknown sessions throw before any event. Leaving the loop early cancels the run.
   */
  async *stream(
    request: RunRequest,
    options: Pick<RunOptions, 'signal' | 'workflow'> = {},
  ): AsyncGenerator<RuntimeEvent> {
    const run = await this.start(request, {
      ...(options.workflow ? { workflow: options.workflow } : {}),
      execute: false,
    });
    const controller = new AbortController();
    const outer = options.signal;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    outer?.addEventListener('abort', forward, { once: true });
    const queue = new AsyncQueue<RuntimeEvent>();
    const finished = this.#runToEnd(run.id, {
      signal: controller.signal,
      onEvent: (event) => queue.push(event),
    })
      .catch(() => undefined)
      .finally(() => queue.end());
    try {
      yield* queue;
    } finally {
      outer?.removeEventListener('abort', forward);
      controller.abort(new CancelledError('The stream consumer stopped reading.'));
      await finished;
    }
  }

  /**
   * Records a run and returns at once (the web API's 202). By default this runtime then executes it in the
   * background; with `execute: false` it stays queued for any worker (`drive`, `work`, another process).
   */
  async start(
    request: RunRequest,
    options: { workflow?: Workflow; execute?: boolean; onEvent?: RunOptions['onEvent'] } = {},
  ): Promise<Run> {
    const parsed = parseRunRequest(request);
    const workflow = options.workflow ? parseWorkflow(options.workflow) : agentWorkflow();
    const workdir = await normaliseWorkdir(parsed.workdir);
    const config = loadConfig(this.runtimeDir, workdir);
    // Resolve the model now, so a missing model or key fails before a run exists.
    const settings = resolveModelSettings(
      parsed,
      {
        model: this.#options.model,
        model_base_url: this.#options.modelBaseUrl,
        model_api_key: this.#options.apiKey,
      },
      config,
      this.#env,
    );
    // Unknown or disabled names in `skills` fail here too, before a run exists.
    if (parsed.skills) {
      await skillsForRun(this.runtimeDir, workdir, config, parsed.skills, { envDirs: this.#env.skillDirs });
    }
    const session = parsed.session_id
      ? this.sessions.get(parsed.session_id)
      : this.sessions.create({ title: titleOf(parsed.prompt), model: settings.model, workdir });
    const { model_api_key: requestKey, stream: _stream, ...input } = parsed;
    const store = await this.store();
    const run = await store.createRun({
      session_id: session.id,
      workdir,
      prompt: parsed.prompt,
      workflow: workflow as unknown as JsonValue,
      input: { ...input, workdir } as unknown as JsonObject,
    });
    if (requestKey) this.#requestKeys.set(run.id, requestKey);
    if (options.execute !== false) {
      void this.#runToEnd(run.id, options.onEvent ? { onEvent: options.onEvent } : {}).catch(() => undefined);
    }
    return run;
  }

  /**
   * Claims a queued run and executes it in this process until it ends, waits for a human or is paused.
   * Returns null when another worker claimed it first.
   */
  async drive(runId: string, options: DriveOptions = {}): Promise<ExecutionOutcome | null> {
    const store = await this.store();
    const claimed = await store.claimRun(runId, { owner: this.workerId, leaseMs: this.#leaseMs() });
    if (!claimed) {
      await store.getRun(runId);
      return null;
    }
    return this.#execute(claimed, options);
  }

  /**
   * Works as a worker: claims queued runs from the store, oldest first, one at a time, until `stop` or
   * `signal` aborts. Several workers (processes) can share one store; each run is executed by exactly
   * one of them. `stop` lets the run in hand reach its end (or its next wait); `signal` cancels it too.
   */
  async work(options: WorkOptions = {}): Promise<void> {
    const store = await this.store();
    const idleMs = options.idleMs ?? 250;
    const stopped = () => options.signal?.aborted || options.stop?.aborted;
    while (!stopped()) {
      const next = await store.claimNext({ owner: this.workerId, leaseMs: this.#leaseMs() });
      if (!next) {
        await sleep(idleMs, [options.signal, options.stop]);
        continue;
      }
      await options.onClaim?.(next);
      const onEvent = options.onEvent;
      const outcome = await this.#execute(next, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(onEvent ? { onEvent: (event, seq) => onEvent(event, seq, next) } : {}),
      }).catch(async (error: unknown) => ({
        run: await store.getRun(next.id).catch(() => next),
        error: KeelError.is(error)
          ? error
          : new KeelError('SERVER_ERROR', String((error as Error)?.message ?? error)),
      }));
      await options.onOutcome?.(outcome);
    }
  }

  /**
   * Sends the run a message from its user, from any process: the run shows it to the model at its next
   * turn (the spec's `user_input`) and emits `user_input_received`. A run that waits or is paused gets it
   * when it continues; a finished run refuses it with INVALID_STATE.
   */
  async sendInput(runId: string, content: string): Promise<UserInput> {
    if (typeof content !== 'string' || !content.trim()) {
      throw new InvalidParamsError('content must be a non-empty string', { field: 'content' });
    }
    return (await this.store()).addUserInput(runId, content);
  }

  /** Asks for the run to be cancelled; works from any process sharing the store. */
  async cancelRun(runId: string): Promise<Run> {
    return (await this.#controls()).cancel(runId);
  }

  /** Asks a running run to pause at its next step boundary (a queued one pauses at once). */
  async pauseRun(runId: string): Promise<Run> {
    return (await this.#controls()).pause(runId);
  }

  /** Puts a paused or waiting run back in the queue; `drive` or a worker continues it. */
  async resumeRun(runId: string): Promise<Run> {
    return (await this.#controls()).resume(runId);
  }

  /** Queues a failed or cancelled run again, from its last checkpoint. */
  async retryRun(runId: string): Promise<Run> {
    return (await this.#controls()).retry(runId);
  }

  /** Queues a run whose worker died (lease expired or process gone), from its last checkpoint. */
  async recoverRun(runId: string): Promise<Run> {
    return (await this.#controls()).recover(runId);
  }

  /** A new queued run from a checkpoint of any run, with the history up to it. */
  async forkRun(checkpointId: string): Promise<Run> {
    return (await this.#controls()).fork(checkpointId);
  }

  /**
   * Runs one tool directly, as `POST /tool` does, confined to `workdir` and under its configured command
   * policy and sandbox. File changes are kept per workdir for this runtime's life, for undo_file.
   */
  async callTool(name: string, params: unknown, workdir?: string): Promise<string> {
    const root = await normaliseWorkdir(workdir);
    const config = loadConfig(this.runtimeDir, root);
    const tools = this.#options.tools ?? createCodingTools();
    let history = this.#toolHistories.get(root);
    if (history === undefined) {
      history = new FileHistory();
      this.#toolHistories.set(root, history);
    }
    const context: ToolContext = {
      workdir: root,
      guard: await createPathGuard({
        workdir: root,
        allowedRoots: config.security?.allowed_roots ?? [],
        strictReadBoundary: config.security?.strict_read_boundary ?? true,
      }),
      signal: new AbortController().signal,
      audit: toolAuditor(await this.store(), { id: null, session_id: null, workdir: root }),
      commands: createCommandPolicy({
        allowedCommands: config.security?.allowed_commands,
        blockedCommands: config.security?.blocked_commands,
      }),
      sandbox: createSandbox(config.sandbox),
      history,
    };
    try {
      return await tools.execute(name, params ?? {}, context);
    } catch (error) {
      if (KeelError.is(error)) throw error;
      throw new ToolError(
        `Tool '${name}' failed: ${(error as Error).message}`,
        { tool: name },
        { cause: error },
      );
    }
  }

  /** Ends the MCP sessions (stopping the servers it started) and closes the stores; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // MCP servers first: their processes must not outlive the runtime, whatever the stores do.
    await this.#mcp.close();
    if (this.#stores) {
      const { store, blobs, owned } = await this.#stores.catch(() => ({
        store: null,
        blobs: null,
        owned: false,
      }));
      if (owned && store) await store.close();
      await blobs?.close?.();
    }
    this.#db.close();
  }

  /**
   * Drives a run until it is final: executes it here whenever it is queued, and otherwise (waiting for a
   * human, paused, or running in another process) follows it in the store, delivering its events.
   */
  async #runToEnd(runId: string, options: Pick<RunOptions, 'signal' | 'onEvent'>): Promise<unknown> {
    const store = await this.store();
    let delivered = (await store.getRun(runId)).last_seq;
    const onEvent = async (event: RuntimeEvent, seq: number) => {
      delivered = seq;
      await options.onEvent?.(event);
    };
    for (;;) {
      let run = await store.getRun(runId);
      if (run.last_seq > delivered) {
        for (const record of await store.listEvents(runId, { after: delivered })) {
          await this.events.emit(record.event as unknown as RuntimeEvent);
          await onEvent(record.event as unknown as RuntimeEvent, record.seq);
        }
        run = await store.getRun(runId);
      }
      if (finishedStatuses.includes(run.status) && run.last_seq <= delivered) return finalResult(run);
      if (run.status === 'queued') {
        const outcome = await this.drive(runId, {
          ...(options.signal ? { signal: options.signal } : {}),
          onEvent,
        });
        if (outcome?.error && finishedStatuses.includes(outcome.run.status)) throw outcome.error;
        continue;
      }
      if (options.signal?.aborted) {
        await this.cancelRun(runId).catch(() => undefined);
        throw new CancelledError();
      }
      await nextChange(store, runId, options.signal);
    }
  }

  /** Executes a run this worker has claimed; a run whose configuration is broken fails with the reason. */
  async #execute(claimed: Run, options: DriveOptions): Promise<ExecutionOutcome> {
    const { store, blobs } = await this.#opened();
    const runId = claimed.id;
    const env = await buildRunEnvironment(claimed, {
      options: this.#options,
      env: this.#env,
      runtimeDir: this.runtimeDir,
      sessions: this.sessions,
      requestKey: this.#requestKeys.get(runId),
      mcp: this.#mcp,
    }).catch(async (error) => {
      await store.transition(runId, {
        from: ['running'],
        to: 'failed',
        owner: this.workerId,
        error: KeelError.is(error) ? error.toJSON() : { code: 'SERVER_ERROR', message: String(error) },
      });
      throw error;
    });
    let seq = claimed.last_seq;
    const outcome = await executeRun(claimed, {
      store,
      blobs,
      owner: this.workerId,
      leaseMs: this.#leaseMs(),
      env,
      ...(options.signal ? { signal: options.signal } : {}),
      deliver: async (event) => {
        seq += 1;
        await this.events.emit(event);
        await options.onEvent?.(event, seq);
      },
    });
    if (finishedStatuses.includes(outcome.run.status)) this.#requestKeys.delete(runId);
    return outcome;
  }

  #leaseMs(): number {
    return this.#options.leaseMs ?? this.#configLeaseMs ?? defaultLeaseMs;
  }

  async #controls(): Promise<RunControls> {
    return new RunControls(await this.store());
  }

  #opened(): Promise<{ store: RunStore; blobs: BlobStore; owned: boolean }> {
    this.#stores ??= (async () => {
      const workdir = this.#options.workdir ? await normaliseWorkdir(this.#options.workdir) : process.cwd();
      const config = loadConfig(this.runtimeDir, workdir);
      // Read once with the store: claims (every idle poll of work()) must not re-read config files.
      this.#configLeaseMs = config.runs?.lease_ms;
      const opened = await openStores(
        config,
        {
          runtimeDir: this.runtimeDir,
          workdir,
          db: this.#db,
          defaultDbPath: join(this.runtimeDir, 'keel.db'),
        },
        this.#options.now,
      );
      return {
        store: this.#options.store ?? opened.store,
        blobs: this.#options.blobs ?? opened.blobs,
        owned: !this.#options.store,
      };
    })();
    return this.#stores;
  }
}

/** What `run()` returns for a final run, or the error it throws. */
function finalResult(run: Run): unknown {
  if (run.status === 'succeeded') return run.result;
  const error = run.error ?? { code: 'SERVER_ERROR', message: `Run '${run.id}' ended ${run.status}.` };
  if (run.status === 'cancelled') throw new CancelledError(error.message);
  throw new KeelError(error.code as never, error.message, error.details);
}

/** Creates a runtime; see RuntimeOptions. */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  return new Runtime(options);
}

function titleOf(prompt: string): string {
  const line = prompt.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/** The runtime's own SQLite database; a failure to open it is a STORE_ERROR naming the file. */
function openDatabase(path: string): DatabaseSync {
  try {
    return openSqlite(path);
  } catch (error) {
    throw new StoreError(`Could not open the database ${path}: ${(error as Error).message}`, undefined, {
      cause: error,
    });
  }
}

/** Waits `ms`, or less if one of the signals aborts. */
function sleep(ms: number, signals: Array<AbortSignal | undefined>): Promise<void> {
  const live = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  return wait(ms, undefined, { signal: AbortSignal.any(live) }).catch(() => undefined);
}
