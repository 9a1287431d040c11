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
 * The appends are written off the event loop: `record` queues one, `recorded` waits for them. A row's
 * status (and its last_seq) is written only once the events recorded before it are in the log.
 */
export class SessionRecorder {
  readonly #store: Sessions;
  readonly #log: SessionLog;
  readonly #hub: Hub;
  /** Per session, the last event recorded and not yet in the log (its write and broadcast). */
  readonly #pending = new Map<string, Promise<void>>();
  /** Per session, an append that failed and was not yet reported to the session's writer. */
  readonly #failures = new Map<string, unknown>();

  constructor(deps: { store: Sessions; log: SessionLog; hub: Hub }) {
    this.#store = deps.store;
    this.#log = deps.log;
    this.#hub = deps.hub;
  }

  /**
   * Queues one event for the log and broadcasts it once it is written: a subscriber never sees what the log
   * does not hold. Throws the failure of an earlier append of the session not reported yet (where a
   * synchronous append would have thrown before): the writer stops there, as it did.
   */
  record(sessionId: string, event: SessionEvent): void {
    this.#reportFailure(sessionId);
    const written = this.#log.append(sessionId, event).then(
      (entry) => this.#hub.publish({ type: 'event', channel: sessionChannel(sessionId), ...entry }),
      (error) => {
        if (!this.#failures.has(sessionId)) this.#failures.set(sessionId, error);
      },
    );
    this.#pending.set(sessionId, written);
    // Appends settle in order: the last one's end is everyone's.
    void written.then(() => {
      if (this.#pending.get(sessionId) === written) this.#pending.delete(sessionId);
    });
  }

  /**
   * Resolves once every event recorded in the session so far is in the log and broadcast; rejects with an
   * append of the session that failed (STORE_ERROR), once.
   */
  async recorded(sessionId: string): Promise<void> {
    await this.#pending.get(sessionId);
    this.#reportFailure(sessionId);
  }

  /** Resolves once every event recorded so far, in any session, is in the log or failed (shutdown). */
  async flush(): Promise<void> {
    await Promise.all(this.#pending.values());
  }

  #reportFailure(sessionId: string): void {
    if (!this.#failures.has(sessionId)) return;
    const failure = this.#failures.get(sessionId);
    this.#failures.delete(sessionId);
    throw failure;
  }

  /** Sets a session's status and broadcasts the row. */
  async setStatus(
    sessionId: string,
    status: SessionRecord['status'],
    error: RunnerErrorObject | null = null,
  ): Promise<SessionRecord> {
    const finished = status !== 'running' && status !== 'queued';
    await this.recorded(sessionId);
    const session = await this.#store.update(sessionId, {
      status,
      error,
      last_seq: await this.#log.lastSeq(sessionId),
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
    await this.recorded(session.id);
    const ended = await this.#store.update(session.id, {
      status: outcome.status,
      error:
        outcome.status === 'succeeded'
          ? null
          : (outcome.error ?? { code: 'RUNNER_FAILED', message: 'The runner failed.' }),
      // The session's total over its turns (a todo's repair turns, a plan's refinements).
      usage: addUsage(session.usage, outcome.usage),
      last_seq: await this.#log.lastSeq(session.id),
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
      // What else failed to be written is part of this failure.
      await this.recorded(sessionId).catch(() => {});
      const session = await this.#store.update(sessionId, {
        status: 'failed',
        error: failure?.toJSON() ?? { code: 'SERVER_ERROR', message: (error as Error).message },
        last_seq: await this.#log.lastSeq(sessionId),
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
