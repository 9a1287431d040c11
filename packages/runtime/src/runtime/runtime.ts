import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { type BreakerLimits, buildSystemPrompt, defaultBreakerLimits, runAgentLoop } from '../agent/index.ts';
import {
  loadConfig,
  type RuntimeConfig,
  type RuntimeEnv,
  readEnv,
  resolveModelSettings,
} from '../config/index.ts';
import { CancelledError, KeelError, ToolError, toErrorObject } from '../errors/index.ts';
import { type EventBody, EventManager, type RuntimeEvent } from '../events/index.ts';
import { type ChatMessage, ModelClient, type RetryPolicy } from '../model/index.ts';
import { openSqlite, RunStore, type Session, SessionStore } from '../store/index.ts';
import {
  createCodingTools,
  createPathGuard,
  type PathGuard,
  type ToolContext,
  type ToolRegistry,
} from '../tools/index.ts';
import { AsyncQueue } from './async-queue.ts';
import { type ParsedRunRequest, parseRunRequest, type RunRequest } from './run-request.ts';
import type { RunResult } from './run-result.ts';
import { normaliseWorkdir } from './workdir.ts';

/** How to build a runtime. Every field is optional. */
export interface RuntimeOptions {
  /** The user's runtime directory, holding the store and global config (default RUNTIME_HOME or ~/.runtime). */
  runtimeDir?: string;
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
}

interface PreparedRun {
  request: ParsedRunRequest;
  workdir: string;
  session: Session;
  history: ChatMessage[];
  client: ModelClient;
  tools: ToolRegistry;
  guard: PathGuard;
  limits: BreakerLimits;
}

/**
 * The one execution path every surface calls: validates a request, resolves config and model,
 * runs the agent loop and persists the session.
 *
 * @example
 * const runtime = createRuntime({ model: 'gpt-4.1' });
 * const result = await runtime.run({ prompt: 'List the TODOs in src', workdir: '.' });
 * console.log(result.output);
 */
export class Runtime {
  readonly events = new EventManager();
  readonly sessions: SessionStore;
  /** Runs and their stored events: what other processes list, watch and cancel. */
  readonly runs: RunStore;
  readonly runtimeDir: string;
  readonly #options: RuntimeOptions;
  readonly #env: RuntimeEnv;
  readonly #db: DatabaseSync;

  constructor(options: RuntimeOptions = {}) {
    this.#options = options;
    this.#env = readEnv(options.env);
    this.runtimeDir = options.runtimeDir ?? this.#env.home;
    this.#db = openSqlite(join(this.runtimeDir, 'keel.db'));
    this.sessions = new SessionStore(this.#db, options.now);
    this.runs = new RunStore(this.#db, options.now);
  }

  /** Asks the process running `runId` to cancel it; works from any process sharing the store. */
  cancelRun(runId: string): void {
    this.runs.requestControl(runId, 'cancel');
  }

  /** Runs to the end and returns the result; throws a KeelError on failure or cancellation. */
  async run(request: RunRequest, options: RunOptions = {}): Promise<RunResult> {
    const prepared = await this.#prepare(request);
    return this.#execute(prepared, options.onEvent, options.signal);
  }

  /**
   * Streams the run's events: `session_start` first, then `done`, `error` or `cancelled` last.
   * Invalid requests and unknown sessions throw before any event. Leaving the loop early cancels the run.
   */
  async *stream(request: RunRequest, options: Pick<RunOptions, 'signal'> = {}): AsyncGenerator<RuntimeEvent> {
    const prepared = await this.#prepare(request);
    const controller = new AbortController();
    const outer = options.signal;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    outer?.addEventListener('abort', forward, { once: true });
    const queue = new AsyncQueue<RuntimeEvent>();
    const finished = this.#execute(prepared, (event) => queue.push(event), controller.signal)
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

  /** Runs one tool directly, as `POST /tool` does, confined to `workdir`. */
  async callTool(name: string, params: unknown, workdir?: string): Promise<string> {
    const root = await normaliseWorkdir(workdir);
    const config = loadConfig(this.runtimeDir, root);
    const tools = this.#options.tools ?? createCodingTools();
    const context: ToolContext = {
      workdir: root,
      guard: await createPathGuard({
        workdir: root,
        allowedRoots: config.security?.allowed_roots ?? [],
        strictReadBoundary: config.security?.strict_read_boundary ?? true,
      }),
      signal: new AbortController().signal,
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

  /** Closes the store. */
  close(): void {
    this.#db.close();
  }

  async #prepare(input: RunRequest): Promise<PreparedRun> {
    const request = parseRunRequest(input);
    const workdir = await normaliseWorkdir(request.workdir);
    const config: RuntimeConfig = loadConfig(this.runtimeDir, workdir);
    const settings = resolveModelSettings(
      request,
      {
        model: this.#options.model,
        model_base_url: this.#options.modelBaseUrl,
        model_api_key: this.#options.apiKey,
        enable_thinking: this.#options.enableThinking,
        thinking_budget: this.#options.thinkingBudget,
      },
      config,
      this.#env,
    );
    const client = new ModelClient({
      ...settings,
      ...(this.#options.retry ? { retry: this.#options.retry } : {}),
      ...(this.#options.fetch ? { fetch: this.#options.fetch } : {}),
    });
    const base = this.#options.tools ?? createCodingTools();
    const tools = base.filter({
      ...(request.include_tools ? { include: request.include_tools } : {}),
      ...(request.exclude_tools ? { exclude: request.exclude_tools } : {}),
    });
    const guard = await createPathGuard({
      workdir,
      allowedRoots: [...(config.security?.allowed_roots ?? []), ...(request.allowed_roots ?? [])],
      strictReadBoundary: config.security?.strict_read_boundary ?? true,
    });
    const session = request.session_id
      ? this.sessions.get(request.session_id)
      : this.sessions.create({ title: titleOf(request.prompt), model: settings.model, workdir });
    const breaker = { ...defaultBreakerLimits, ...config.circuit_breaker };
    return {
      request,
      workdir,
      session,
      history: request.session_id ? this.sessions.conversation(session.id) : [],
      client,
      tools,
      guard,
      limits: {
        enabled: breaker.enabled,
        max_tokens: request.max_tokens ?? breaker.max_tokens,
        max_cost_usd: request.max_cost_usd ?? breaker.max_cost_usd,
        max_steps: request.max_steps ?? breaker.max_steps,
      },
    };
  }

  async #execute(
    run: PreparedRun,
    onEvent: RunOptions['onEvent'],
    outerSignal: AbortSignal = new AbortController().signal,
  ): Promise<RunResult> {
    const sessionId = run.session.id;
    const record = this.runs.create({
      session_id: sessionId,
      workdir: run.workdir,
      prompt: run.request.prompt,
    });
    // Another process cancels by writing a control record; this timer also proves the run is alive.
    const controls = new AbortController();
    const watcher = setInterval(() => {
      this.runs.heartbeat(record.id);
      if (this.runs.takeControls(record.id).includes('cancel')) controls.abort(new CancelledError());
    }, controlPollMs);
    watcher.unref();
    const signal = AbortSignal.any([outerSignal, controls.signal]);
    // The store is the truth: an event is appended before anyone sees it.
    const emit = async (body: EventBody) => {
      const event = { ...body, session_id: sessionId } as RuntimeEvent;
      this.runs.append(record.id, event);
      await this.events.emit(event);
      await onEvent?.(event);
    };
    try {
      const result = await this.#loop(run, emit, signal);
      this.runs.finish(record.id, 'succeeded');
      return { ...result, run_id: record.id };
    } catch (error) {
      if (signal.aborted || (KeelError.is(error) && error.code === 'CANCELLED')) {
        await emit({ type: 'cancelled' });
        this.runs.finish(record.id, 'cancelled');
        throw KeelError.is(error) && error.code === 'CANCELLED' ? error : new CancelledError();
      }
      const wire = toErrorObject(error);
      await emit({ type: 'error', error: wire });
      this.runs.finish(record.id, 'failed', wire);
      throw error;
    } finally {
      clearInterval(watcher);
    }
  }

  async #loop(
    run: PreparedRun,
    emit: (body: EventBody) => Promise<void>,
    signal: AbortSignal,
  ): Promise<Omit<RunResult, 'run_id'>> {
    const sessionId = run.session.id;
    await emit({ type: 'session_start' });
    const userMessage: ChatMessage = {
      role: 'user',
      content: run.request.prompt,
      ...(run.request.images?.length ? { images: run.request.images } : {}),
    };
    this.sessions.append(sessionId, userMessage);
    const context: ToolContext = { workdir: run.workdir, guard: run.guard, signal };
    const system: ChatMessage = {
      role: 'system',
      content: buildSystemPrompt({
        workdir: run.workdir,
        toolNames: run.tools.names(),
        now: this.#options.now?.() ?? new Date(),
      }),
    };
    const outcome = await runAgentLoop({
      client: run.client,
      tools: run.tools,
      context,
      messages: [system, ...run.history, userMessage],
      limits: run.limits,
      emit,
      onMessage: (message) => this.sessions.append(sessionId, message),
    });
    await emit({ type: 'done', ...outcome });
    return { status: 'success', ...outcome, session_id: sessionId };
  }
}

// How often a running run renews its heartbeat and looks for control requests from other processes.
const controlPollMs = 200;

/** Creates a runtime; see RuntimeOptions. */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  return new Runtime(options);
}

function titleOf(prompt: string): string {
  const line = prompt.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
