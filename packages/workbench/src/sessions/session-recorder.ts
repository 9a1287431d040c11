import { WorkbenchError } from '../errors.ts';
import type { RunnerErrorObject, RunnerEvent, RunnerKind, RunnerOutcome } from '../runners/index.ts';
import { storeFailure } from '../store/index.ts';
import { type Hub, sessionChannel } from './hub.ts';
import type { SessionLog } from './session-log.ts';
import type { Sessions } from './sessions.ts';
import { type SessionEvent, type SessionRecord, sessionView } from './types.ts';
import { addUsage } from './usage.ts';

/**
 * What the session runner writes down about a session: each event appended to the session's JSONL log and
 * only then broadcast on `session:{id}`, and the session's row kept up to date and broadcast as it changes.
 */
export class SessionRecorder {
  readonly #store: Sessions;
  readonly #log: SessionLog;
  readonly #hub: Hub;

  constructor(deps: { store: Sessions; log: SessionLog; hub: Hub }) {
    this.#store = deps.store;
    this.#log = deps.log;
    this.#hub = deps.hub;
  }

  /** Appends one event and then broadcasts it: a subscriber never sees what the log does not hold. */
  record(sessionId: string, event: SessionEvent): void {
    const entry = this.#log.append(sessionId, event);
    this.#hub.publish({ type: 'event', channel: sessionChannel(sessionId), ...entry });
  }

  /** Sets a session's status and broadcasts the row. */
  async setStatus(
    sessionId: string,
    status: SessionRecord['status'],
    error: RunnerErrorObject | null = null,
  ): Promise<SessionRecord> {
    const finished = status !== 'running' && status !== 'queued';
    const session = await this.#store.update(sessionId, {
      status,
      error,
      last_seq: this.#log.lastSeq(sessionId),
      ended_at: finished ? new Date().toISOString() : null,
    });
    this.status(session);
    return session;
  }

  /** The row as a turn starts with `runner`, broadcast. */
  async started(sessionId: string, runner: RunnerKind): Promise<void> {
    const running = await this.#store.update(sessionId, {
      status: 'running',
      runner,
      error: null,
      ended_at: null,
    });
    this.status(running);
  }

  /** Keeps the ids a `runner_started` event names (the runner's own session, a keel run), when it names any. */
  async runnerIds(sessionId: string, event: RunnerEvent): Promise<void> {
    if (event.type === 'runner_started' && (event.runner_session_id || event.run_id)) {
      await this.#store.update(sessionId, {
        ...(event.runner_session_id ? { runner_session_id: event.runner_session_id } : {}),
        ...(event.run_id ? { run_id: event.run_id } : {}),
      });
    }
  }

  /** The row as a turn of `session` (read before the turn) ended with `outcome`, broadcast. */
  async ended(session: SessionRecord, outcome: RunnerOutcome): Promise<void> {
    const ended = await this.#store.update(session.id, {
      status: outcome.status,
      error:
        outcome.status === 'succeeded'
          ? null
          : (outcome.error ?? { code: 'RUNNER_FAILED', message: 'The runner failed.' }),
      // The session's total over its turns (a todo's repair turns, a plan's refinements).
      usage: addUsage(session.usage, outcome.usage),
      last_seq: this.#log.lastSeq(session.id),
      ended_at: new Date().toISOString(),
      ...(outcome.runnerSessionId ? { runner_session_id: outcome.runnerSessionId } : {}),
      ...(outcome.runId ? { run_id: outcome.runId } : {}),
    });
    this.status(ended);
  }

  /**
   * A turn that broke off because the workbench could not record it (its log or its row: a full disk, a
   * read-only database) ends failed rather than `running` forever, when the row can still be written.
   */
  async brokeOff(sessionId: string, error: unknown): Promise<void> {
    const failure = WorkbenchError.is(error) ? error : storeFailure(error);
    try {
      const session = await this.#store.update(sessionId, {
        status: 'failed',
        error: failure?.toJSON() ?? { code: 'SERVER_ERROR', message: (error as Error).message },
        last_seq: this.#log.lastSeq(sessionId),
        ended_at: new Date().toISOString(),
      });
      this.status(session);
    } catch {}
  }

  /** Broadcasts the row (its `busy` changed); a row that cannot be read (a store fault) is not broadcast. */
  quietStatus(sessionId: string): void {
    this.#store.find(sessionId).then(
      (session) => session && this.status(session),
      () => {},
    );
  }

  /** Broadcasts the row as clients see it. */
  status(session: SessionRecord): void {
    this.#hub.publish({ type: 'status', channel: sessionChannel(session.id), session: sessionView(session) });
  }
}
