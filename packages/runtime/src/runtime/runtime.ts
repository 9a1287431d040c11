import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { AgentsApi } from '../agents/index.ts';
import { type RuntimeEnv, readEnv } from '../config/index.ts';
import { InvalidParamsError } from '../errors/index.ts';
import { EventManager, type RuntimeEvent } from '../events/index.ts';
import { McpClientPool } from '../mcp/index.ts';
import { ProjectsApi, TasksApi } from '../projects/index.ts';
import { type ExecutionOutcome, newWorkerId } from '../runs/index.ts';
import { finishedStatuses, type Run, type RunStore, SessionStore, type UserInput } from '../store/index.ts';
import { LspServers } from '../tools/index.ts';
import type { Workflow } from '../workflow/index.ts';
import { ApprovalsApi } from './approvals-api.ts';
import { ArtifactsApi } from './artifacts-api.ts';
import { AuditApi } from './audit-api.ts';
import { DirectTools } from './direct-tools.ts';
import { eventStream } from './event-stream.ts';
import { openDatabase } from './open-store.ts';
import { recordRun } from './record-run.ts';
import { RunDriver } from './run-driver.ts';
import type { RunRequest } from './run-request.ts';
import type { RunResult } from './run-result.ts';
import { RunsApi } from './runs-api.ts';
import { createRuntimeAgents } from './runtime-agents.ts';
import type {
  DriveOptions,
  FollowOptions,
  RunOptions,
  RuntimeOptions,
  WorkOptions,
} from './runtime-options.ts';
import { RuntimeStores } from './runtime-stores.ts';
import { SkillsApi } from './skills-api.ts';

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
  readonly workerId: string;
  /**
   * Runs in the store: get, list, events, steps, checkpoints, timeline, metrics, watch; and their controls:
   * pause, resume, cancel, retry, recover, fork.
   */
  readonly runs: RunsApi;
  /** Approvals and questions runs wait on: list, approve, reject. */
  readonly approvals: ApprovalsApi;
  /** Artifacts of runs: metadata and payloads. */
  readonly artifacts: ArtifactsApi;
  /** The audit log: tool calls, file writes and edits, run controls, approval decisions. */
  readonly audit: AuditApi;
  /** Skills: list, get (with documentation), enable, disable. */
  readonly skills: SkillsApi;
  /** Sub-agents, durable child runs: spawn, get, list, kill, resume. */
  readonly agents: AgentsApi;
  /** The web API's projects: create (with a session), list, get, update, delete, init (AGENTS.md), chat. */
  readonly projects: ProjectsApi;
  /** Development tasks on a project's git branches, each with its own session: create, …, checkout, chat. */
  readonly tasks: TasksApi;
  readonly #options: RuntimeOptions;
  /** The environment variables, read once (`options.env` or process.env). */
  readonly #env: RuntimeEnv;
  readonly #db: DatabaseSync;
  readonly #stores: RuntimeStores;
  /** Per-request model keys of runs started here: used by this process only, never stored. */
  readonly #requestKeys = new Map<string, string>();
  readonly #directTools: DirectTools;
  /** Connections to MCP servers, opened when a run first uses one and closed by `close()`. */
  readonly #mcp: McpClientPool;
  /** Language servers, one per workdir and language, started by the first lsp_* call and stopped by `close()`. */
  readonly #lsp: LspServers;
  /** Claims, executes and follows runs in this process. */
  readonly #driver: RunDriver;
  #closed = false;

  constructor(options: RuntimeOptions = {}) {
    this.workerId = newWorkerId(options.workerRole);
    this.#options = options;
    this.#env = readEnv(options.env);
    this.#mcp = new McpClientPool({ env: options.env ?? process.env });
    this.#lsp = new LspServers({
      env: options.env ?? process.env,
      ...(options.lsp ? { config: options.lsp } : {}),
    });
    this.runtimeDir = options.runtimeDir ?? this.#env.home;
    this.#db = openDatabase(join(this.runtimeDir, 'keel.db'));
    this.sessions = new SessionStore(this.#db, options.now);
    this.#stores = new RuntimeStores(options, this.runtimeDir, this.#db);
    this.#directTools = new DirectTools(
      this.runtimeDir,
      options.tools,
      () => this.store(),
      this.#env,
      this.#lsp,
      options.trustProjectConfig,
      {
        ...(options.unconfinedCommands === 'refuse' ? { unconfinedCommands: 'refuse' as const } : {}),
        ...(options.hiddenPaths?.length ? { hiddenPaths: options.hiddenPaths } : {}),
        ...(options.commandEnv ? { commandEnv: options.commandEnv } : {}),
      },
    );
    const now = options.now;
    // One clock for the run controls, the executor and the stores: a test's fake one, or the wall clock.
    const nowMs = now ? () => now().getTime() : Date.now;
    this.runs = new RunsApi(() => this.store(), nowMs);
    this.#driver = new RunDriver({
      options,
      env: this.#env,
      runtimeDir: this.runtimeDir,
      sessions: this.sessions,
      stores: this.#stores,
      mcp: this.#mcp,
      lsp: this.#lsp,
      events: this.events,
      requestKeys: this.#requestKeys,
      workerId: this.workerId,
      agents: () => this.agents,
      cancel: (runId) => this.runs.cancel(runId),
      now: nowMs,
    });
    this.approvals = new ApprovalsApi(
      () => this.store(),
      () => this.#driver.controls(),
    );
    this.artifacts = new ArtifactsApi(() => this.#stores.opened());
    this.audit = new AuditApi(() => this.store());
    this.skills = new SkillsApi({
      runtimeDir: this.runtimeDir,
      envDirs: this.#env.skillDirs,
      defaultWorkdir: options.workdir,
      trust: options.trustProjectConfig,
    });
    const projectDeps = {
      store: () => this.store(),
      sessions: this.sessions,
      runtimeDir: this.runtimeDir,
      start: (request: RunRequest, startOptions: { workflow?: Workflow; execute?: boolean }) =>
        this.start(request, startOptions),
    };
    this.agents = createRuntimeAgents({
      options,
      env: this.#env,
      runtimeDir: this.runtimeDir,
      store: () => this.store(),
      requestKeys: this.#requestKeys,
      follow: (runId) => this.#driver.follow(runId, {}),
    });
    this.projects = new ProjectsApi(projectDeps);
    this.tasks = new TasksApi(projectDeps);
  }

  /** The durable store this runtime uses (opened on first use from the configuration). */
  async store(): Promise<RunStore> {
    return (await this.#stores.opened()).store;
  }

  /** Runs to the end and returns the result; throws a KeelError on failure or cancellation. */
  async run(request: RunRequest, options: RunOptions = {}): Promise<RunResult> {
    const run = await this.start(request, {
      ...(options.workflow ? { workflow: options.workflow } : {}),
      execute: false,
    });
    const final = await this.#driver.follow(run.id, options);
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
    yield* eventStream<RuntimeEvent>((handlers) => this.#driver.follow(run.id, handlers), options.signal);
  }

  /**
   * Records a run and returns at once (the web API's 202). By default this runtime then executes it in the
   * background; with `execute: false` it stays queued for any worker (`drive`, `work`, another process).
   */
  async start(
    request: RunRequest,
    options: { workflow?: Workflow; execute?: boolean; onEvent?: RunOptions['onEvent'] } = {},
  ): Promise<Run> {
    const { run, requestKey } = await recordRun(request, options.workflow, {
      options: this.#options,
      env: this.#env,
      runtimeDir: this.runtimeDir,
      sessions: this.sessions,
      store: () => this.store(),
    });
    if (requestKey) this.#requestKeys.set(run.id, requestKey);
    if (options.execute !== false && !this.#options.queueOnly) {
      void this.#driver
        .follow(run.id, options.onEvent ? { onEvent: options.onEvent } : {})
        .catch(() => undefined);
    }
    return run;
  }

  /**
   * Claims a queued run and executes it in this process until it ends, waits for a human or is paused.
   * Returns null when another worker claimed it first.
   */
  drive(runId: string, options: DriveOptions = {}): Promise<ExecutionOutcome | null> {
    return this.#driver.drive(runId, options);
  }

  /**
   * Follows a run to its end, from any process: delivers its events (after `after`), executes it here
   * whenever it is queued (also after an approval decided elsewhere), and waits in the store while it
   * waits for a human, is paused or runs in another worker. `signal` cancels the run wherever it executes;
   * following goes on until it is final. Answers the final run (succeeded, failed or cancelled: read its
   * status, nothing is thrown for it).
   *
   * @example
   * const run = await runtime.start(request, { execute: false });
   * const final = await runtime.follow(run.id, { after: 0, onEvent: (event, seq) => show(event, seq) });
   */
  async follow(runId: string, options: FollowOptions = {}): Promise<Run> {
    try {
      await this.#driver.follow(runId, { ...options, untilFinal: true });
    } catch (error) {
      // The run's own failure (or cancellation) is its final status, not the caller's error.
      const run = await this.runs.get(runId);
      if (finishedStatuses.includes(run.status)) return run;
      throw error;
    }
    return this.runs.get(runId);
  }

  /**
   * Works as a worker: claims queued runs from the store, oldest first, one at a time, until `stop` or
   * `signal` aborts. Several workers (processes) can share one store; each run is executed by exactly
   * one of them. `stop` lets the run in hand reach its end (or its next wait); `signal` cancels it too.
   */
  work(options: WorkOptions = {}): Promise<void> {
    return this.#driver.work(options);
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

  // The run controls live under `runs` (`runtime.runs.cancel(id)`); these names stay for existing callers.

  /** Same as `runs.cancel`. */
  cancelRun(runId: string): Promise<Run> {
    return this.runs.cancel(runId);
  }

  /** Same as `runs.pause`. */
  pauseRun(runId: string): Promise<Run> {
    return this.runs.pause(runId);
  }

  /** Same as `runs.resume`. */
  resumeRun(runId: string): Promise<Run> {
    return this.runs.resume(runId);
  }

  /** Same as `runs.retry`. */
  retryRun(runId: string): Promise<Run> {
    return this.runs.retry(runId);
  }

  /** Same as `runs.recover`. */
  recoverRun(runId: string): Promise<Run> {
    return this.runs.recover(runId);
  }

  /** Same as `runs.fork`. */
  forkRun(checkpointId: string): Promise<Run> {
    return this.runs.fork(checkpointId);
  }

  /**
   * Runs one tool directly, as `POST /tool` does, confined to `workdir` and under its configured command
   * policy and sandbox. File changes are kept per workdir for this runtime's life, for undo_file.
   */
  callTool(name: string, params: unknown, workdir?: string): Promise<string> {
    return this.#directTools.call(name, params, workdir);
  }

  /**
   * Ends the MCP sessions and stops the language servers (the processes it started), then closes the
   * stores; idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Servers first: their processes must not outlive the runtime, whatever the stores do.
    await Promise.all([this.#mcp.close(), this.#lsp.close()]);
    await this.#stores.close();
    this.#db.close();
  }
}

/** Creates a runtime; see RuntimeOptions. */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  return new Runtime(options);
}
