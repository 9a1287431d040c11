import { WorkbenchError } from '../errors.ts';
import type {
  Runner,
  RunnerErrorObject,
  RunnerEvent,
  RunnerImage,
  RunnerKind,
  RunnerOutcome,
} from '../runners/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { storeFailure } from '../store/index.ts';
import { type Hub, sessionChannel } from './hub.ts';
import type { SessionLog } from './session-log.ts';
import type { SessionStore } from './session-store.ts';
import type { SessionContext, SessionEvent, SessionKind, SessionRecord } from './types.ts';

export interface RunnerSource {
  get(kind: RunnerKind): Runner;
}

/** Work that follows every turn of one kind of session (writing plan.md, parsing the todo list, ...). */
export type TurnHandler = (session: SessionRecord, outcome: RunnerOutcome) => void | Promise<void>;

export interface TurnInput {
  prompt: string;
  images?: RunnerImage[];
  /** Logged as the user's message instead of the full prompt (the prompt may carry a whole scan). */
  shownAs?: string;
}

/**
 * The ONE session runner behind every AI interaction: resolve the runner, build the request (model from
 * settings, enabled MCP servers, skill dirs, workdir), run it, append each event to the session's JSONL log
 * and only then broadcast it on `session:{id}`, and keep the session's row up to date.
 */
export class SessionRunner {
  readonly #store: SessionStore;
  readonly #log: SessionLog;
  readonly #hub: Hub;
  readonly #settings: SettingsService;
  readonly #runners: RunnerSource;
  readonly #active = new Map<string, AbortController>();
  readonly #work = new Set<Promise<unknown>>();
  readonly #afterTurn = new Map<SessionKind, TurnHandler>();

  constructor(deps: {
    store: SessionStore;
    log: SessionLog;
    hub: Hub;
    settings: SettingsService;
    runners: RunnerSource;
  }) {
    this.#store = deps.store;
    this.#log = deps.log;
    this.#hub = deps.hub;
    this.#settings = deps.settings;
    this.#runners = deps.runners;
  }

  create(kind: SessionKind, ownerId: string | null, runnerConfigId: string, context: SessionContext) {
    const session = this.#store.create({ kind, ownerId, runnerConfigId, context });
    this.#status(session);
    return session;
  }

  /** Appends one event and then broadcasts it: a subscriber never sees what the log does not hold. */
  record(sessionId: string, event: SessionEvent): void {
    const entry = this.#log.append(sessionId, event);
    this.#hub.publish({ type: 'event', channel: sessionChannel(sessionId), ...entry });
  }

  /** Sets a session's status (for sessions the workbench drives itself, like task init) and broadcasts it. */
  setStatus(sessionId: string, status: SessionRecord['status'], error: RunnerErrorObject | null = null) {
    const finished = status !== 'running' && status !== 'queued';
    const session = this.#store.update(sessionId, {
      status,
      error,
      last_seq: this.#log.lastSeq(sessionId),
      ended_at: finished ? new Date().toISOString() : null,
    });
    this.#status(session);
    return session;
  }

  /**
   * Registers what follows each turn of a kind of session, whoever started it (an endpoint or a chat
   * message). When it throws, the turn is recorded as failed with its error.
   */
  onTurnEnd(kind: SessionKind, handler: TurnHandler): void {
    this.#afterTurn.set(kind, handler);
  }

  isRunning(sessionId: string): boolean {
    return this.#active.has(sessionId);
  }

  /**
   * Checks synchronously that a turn can start (model configured, session idle), so an endpoint can refuse
   * with 409 before answering 202. Returns the session.
   */
  ready(sessionId: string): SessionRecord {
    const session = this.#store.get(sessionId);
    if (this.#active.has(sessionId)) {
      throw new WorkbenchError('SESSION_BUSY', 409, `Session '${sessionId}' is still running: wait for it.`, {
        session_id: sessionId,
      });
    }
    this.#settings.model(this.#settings.runnerConfig(session.runner_config_id));
    return session;
  }

  /** Runs one turn to its end (a follow-up turn resumes the runner's own session). Never throws for the agent's failures. */
  async turn(sessionId: string, input: TurnInput): Promise<RunnerOutcome> {
    const session = this.ready(sessionId);
    const controller = new AbortController();
    this.#active.set(sessionId, controller);
    const work = this.#turn(session, input, controller);
    this.#work.add(work);
    try {
      return await work;
    } catch (error) {
      this.#brokeOff(sessionId, error);
      throw error;
    } finally {
      this.#work.delete(work);
      this.#active.delete(sessionId);
    }
  }

  cancel(sessionId: string): boolean {
    const controller = this.#active.get(sessionId);
    controller?.abort();
    return Boolean(controller);
  }

  /** Stops every running turn and waits for them to end (service shutdown). */
  async close(): Promise<void> {
    for (const controller of this.#active.values()) controller.abort();
    await Promise.allSettled([...this.#work]);
  }

  async #turn(session: SessionRecord, input: TurnInput, controller: AbortController): Promise<RunnerOutcome> {
    const config = this.#settings.runnerConfig(session.runner_config_id);
    const model = this.#settings.model(config);
    const running = this.#store.update(session.id, {
      status: 'running',
      runner: config.kind,
      error: null,
      ended_at: null,
    });
    this.#status(running);
    this.record(session.id, { type: 'message', role: 'user', content: input.shownAs ?? input.prompt });
    const emit = async (event: RunnerEvent) => {
      this.record(session.id, event);
      if (event.type === 'runner_started' && (event.runner_session_id || event.run_id)) {
        this.#store.update(session.id, {
          ...(event.runner_session_id ? { runner_session_id: event.runner_session_id } : {}),
          ...(event.run_id ? { run_id: event.run_id } : {}),
        });
      }
    };
    let outcome: RunnerOutcome;
    try {
      const runner = this.#runners.get(config.kind);
      outcome = await runner.run(
        {
          prompt: input.prompt,
          workdir: session.context.workdir,
          ...(session.context.allowedRoots ? { allowedRoots: session.context.allowedRoots } : {}),
          ...(session.context.instructions ? { instructions: session.context.instructions } : {}),
          ...(input.images?.length ? { images: input.images } : {}),
          ...(session.runner_session_id ? { resumeSessionId: session.runner_session_id } : {}),
          model,
          mcpServers: this.#settings.stored().mcp_servers.filter((server) => server.enabled),
          skillDirs: session.context.skillDirs,
          ...(session.context.readOnly ? { readOnly: true } : {}),
          config,
          signal: controller.signal,
        },
        emit,
      );
    } catch (error) {
      // Only a broken request throws (the contract); it still ends as a failed session, never a hang.
      const failure = WorkbenchError.is(error)
        ? error.toJSON()
        : { code: 'RUNNER_FAILED', message: (error as Error).message };
      this.record(session.id, { type: 'error', error: failure });
      outcome = { status: 'failed', output: '', error: failure };
    }
    if (controller.signal.aborted && outcome.status !== 'succeeded')
      outcome = { ...outcome, status: 'cancelled' };
    const handler = this.#afterTurn.get(session.kind);
    if (handler) {
      try {
        await handler({ ...session, runner: config.kind }, outcome);
      } catch (error) {
        const failure = WorkbenchError.is(error)
          ? error.toJSON()
          : { code: 'SERVER_ERROR', message: (error as Error).message };
        this.record(session.id, { type: 'error', error: failure });
        outcome = { ...outcome, status: 'failed', error: failure };
      }
    }
    const ended = this.#store.update(session.id, {
      status: outcome.status,
      error:
        outcome.status === 'succeeded'
          ? null
          : (outcome.error ?? { code: 'RUNNER_FAILED', message: 'The runner failed.' }),
      usage: outcome.usage ?? null,
      last_seq: this.#log.lastSeq(session.id),
      ended_at: new Date().toISOString(),
      ...(outcome.runnerSessionId ? { runner_session_id: outcome.runnerSessionId } : {}),
      ...(outcome.runId ? { run_id: outcome.runId } : {}),
    });
    this.#status(ended);
    return outcome;
  }

  /**
   * A turn that broke off because the workbench could not record it (its log or its row: a full disk, a
   * read-only database) ends failed rather than `running` forever, when the row can still be written.
   */
  #brokeOff(sessionId: string, error: unknown): void {
    const failure = WorkbenchError.is(error) ? error : storeFailure(error);
    try {
      const session = this.#store.update(sessionId, {
        status: 'failed',
        error: failure?.toJSON() ?? { code: 'SERVER_ERROR', message: (error as Error).message },
        last_seq: this.#log.lastSeq(sessionId),
        ended_at: new Date().toISOString(),
      });
      this.#status(session);
    } catch {}
  }

  #status(session: SessionRecord): void {
    this.#hub.publish({ type: 'status', channel: sessionChannel(session.id), session });
  }
}
