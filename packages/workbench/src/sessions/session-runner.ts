import { WorkbenchError } from '../errors.ts';
import type { RunnerErrorObject, RunnerOutcome } from '../runners/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { ChatDelivery, type ChatFramer } from './chat-delivery.ts';
import { busyWith, Holds, type Reservation, stopReasons } from './holds.ts';
import type { Hub } from './hub.ts';
import { MessageQueue, type QueuedMessage, type SentMessage } from './message-queue.ts';
import type { SessionLog } from './session-log.ts';
import { SessionRecorder } from './session-recorder.ts';
import type { Sessions } from './sessions.ts';
import { type RunnerSource, runTurn, type TurnDeps, type TurnHandler, type TurnInput } from './turn.ts';
import type { SessionContext, SessionEvent, SessionKind, SessionRecord } from './types.ts';

/**
 * The ONE session runner behind every AI interaction: resolve the runner, build the request (model from
 * settings, enabled MCP servers, skill dirs, workdir), run it, append each event to the session's JSONL log
 * and only then broadcast it on `session:{id}`, and keep the session's row up to date. This class is the one
 * face of its parts: holding sessions (`holds.ts`), chat messages (`chat-delivery.ts`) and their queue
 * (`message-queue.ts`), writing the log and the row (`session-recorder.ts`) and a turn itself (`turn.ts`).
 */
export class SessionRunner {
  readonly #store: Sessions;
  readonly #settings: SettingsService;
  readonly #recorder: SessionRecorder;
  readonly #holds = new Holds();
  /** Per session, chat messages sent while it was busy, delivered in order as its next turns. */
  readonly #queue: MessageQueue;
  readonly #chat: ChatDelivery;
  readonly #work = new Set<Promise<unknown>>();
  readonly #afterTurn = new Map<SessionKind, TurnHandler>();
  readonly #turnDeps: TurnDeps;

  constructor(deps: {
    store: Sessions;
    log: SessionLog;
    hub: Hub;
    settings: SettingsService;
    runners: RunnerSource;
  }) {
    this.#store = deps.store;
    this.#settings = deps.settings;
    this.#recorder = new SessionRecorder(deps);
    this.#queue = new MessageQueue(deps.hub);
    this.#turnDeps = {
      settings: deps.settings,
      runners: deps.runners,
      recorder: this.#recorder,
      afterTurn: this.#afterTurn,
      stopReason: (controller) => this.#holds.why(controller),
    };
    const host = {
      hold: (sessionId: string, what: string) => this.#hold(sessionId, what),
      ready: (sessionId: string) => this.ready(sessionId),
      turn: (sessionId: string, input: TurnInput, reservation: Reservation) =>
        this.turn(sessionId, input, reservation),
      track: (work: Promise<unknown>) => {
        this.#work.add(work);
        void work.finally(() => this.#work.delete(work));
      },
    };
    const { store, settings } = deps;
    this.#chat = new ChatDelivery({
      host,
      store,
      settings,
      recorder: this.#recorder,
      holds: this.#holds,
      queue: this.#queue,
    });
  }

  async create(
    kind: SessionKind,
    ownerId: string | null,
    runnerConfigId: string,
    context: SessionContext,
  ): Promise<SessionRecord> {
    const session = await this.#store.create({ kind, ownerId, runnerConfigId, context });
    this.#recorder.status(session);
    return session;
  }

  /**
   * Queues one event for the session's log and broadcasts it once written: a subscriber never sees what the
   * log does not hold. Throws the failure of an earlier append of the session not reported yet.
   */
  record(sessionId: string, event: SessionEvent): void {
    this.#recorder.record(sessionId, event);
  }

  /** Resolves once the events recorded in the session so far are in its log; rejects when one could not be. */
  recorded(sessionId: string): Promise<void> {
    return this.#recorder.recorded(sessionId);
  }

  /** Sets a session's status (for sessions the workbench drives itself, like task init) and broadcasts it. */
  setStatus(
    sessionId: string,
    status: SessionRecord['status'],
    error: RunnerErrorObject | null = null,
  ): Promise<SessionRecord> {
    return this.#recorder.setStatus(sessionId, status, error);
  }

  /**
   * Registers what follows each turn of a kind of session, whoever started it (an endpoint or a chat
   * message). When it throws, the turn is recorded as failed with its error.
   */
  onTurnEnd(kind: SessionKind, handler: TurnHandler): void {
    this.#afterTurn.set(kind, handler);
  }

  /** Registers how a chat message becomes a turn's prompt in a kind of session (see ChatFramer). */
  onChat(kind: SessionKind, framer: ChatFramer): void {
    this.#chat.onChat(kind, framer);
  }

  /** True while the session is held for work (from its 202 to the work's end). */
  isRunning(sessionId: string): boolean {
    return this.#holds.has(sessionId);
  }

  /** 409 SESSION_BUSY naming what runs when the session is held for work (a hand edit must wait for it). */
  assertIdle(sessionId: string): void {
    this.#holds.assertIdle(sessionId);
  }

  /**
   * Checks that a turn can start (model configured, session open and idle), so an endpoint can refuse with
   * 409 before answering 202. Returns the session.
   */
  async ready(sessionId: string): Promise<SessionRecord> {
    const session = await this.#store.get(sessionId);
    this.#holds.assertOpen(sessionId);
    this.#holds.assertIdle(sessionId);
    await this.#settings.model(await this.#settings.runnerConfig(session.runner_config_id));
    return session;
  }

  /**
   * Holds the session for one piece of work (await it before answering 202): 409 SESSION_BUSY when it is
   * held already. The caller runs the work, passes the reservation to `turn` and releases it in a `finally`.
   */
  async reserve(sessionId: string, what?: string): Promise<Reservation> {
    const session = await this.ready(sessionId);
    return this.#hold(sessionId, what ?? busyWith[session.kind]);
  }

  /** Takes the hold in one synchronous step (see `Holds.take`) and broadcasts the row's `busy`. */
  #hold(sessionId: string, what: string): Reservation {
    const reservation = this.#holds.take(sessionId, what, () => {
      // The next queued message is held at once, so nothing else slips in before it.
      if (!this.#chat.deliverNext(sessionId)) this.#recorder.quietStatus(sessionId);
    });
    this.#recorder.quietStatus(sessionId);
    return reservation;
  }

  /**
   * A chat message (WebSocket `chat`, `POST /api/sessions/{id}/messages`): a follow-up turn now when the
   * session is idle, else queued and delivered as its next turn once the current work ended (in order,
   * one turn each). `onError` hears a turn that broke off (its log or row could not be written).
   */
  send(sessionId: string, content: string, onError?: (error: unknown) => void): Promise<SentMessage> {
    return this.#chat.send(sessionId, content, onError);
  }

  /** The messages waiting in the session's queue, next first (404 for an unknown session). */
  async queue(sessionId: string): Promise<QueuedMessage[]> {
    await this.#store.get(sessionId);
    return this.queued(sessionId);
  }

  /** The messages waiting in the queue of a session known to exist, next first. */
  queued(sessionId: string): QueuedMessage[] {
    return this.#queue.list(sessionId);
  }

  /** Takes a message out of the queue before it is delivered: 404 QUEUED_MESSAGE_NOT_FOUND otherwise. */
  async unqueue(sessionId: string, messageId: string): Promise<QueuedMessage[]> {
    await this.#store.get(sessionId);
    return this.#queue.cancel(sessionId, messageId);
  }

  /** Whether a message waits in the session's queue. */
  hasQueued(sessionId: string): boolean {
    return this.#queue.has(sessionId);
  }

  /**
   * Takes the session's next queued message for its holder to deliver within its own work (a todo goes on
   * with the user's message before it is done), instead of as a turn after the work ended.
   */
  takeQueued(sessionId: string): QueuedMessage | undefined {
    return this.#queue.takeNext(sessionId)?.message;
  }

  /** Drops the session's queued messages (its owner is deleted). */
  dropQueue(sessionId: string): void {
    this.#queue.drop(sessionId);
  }

  /**
   * Runs one turn to its end (a follow-up turn resumes the runner's own session). Without a reservation it
   * holds the session for the turn itself. Never throws for the agent's failures.
   */
  async turn(sessionId: string, input: TurnInput, reservation?: Reservation): Promise<RunnerOutcome> {
    const own = reservation ? undefined : await this.reserve(sessionId);
    const held = this.#holds.get(sessionId);
    try {
      if (!held || held.reservation !== (reservation ?? own)) {
        throw new WorkbenchError(
          'SERVER_ERROR',
          `The reservation of session '${sessionId}' was released before its turn.`,
        );
      }
      const session = await this.#store.get(sessionId);
      const work = runTurn(this.#turnDeps, session, input, held.controller);
      this.#work.add(work);
      try {
        return await work;
      } catch (error) {
        await this.#recorder.brokeOff(sessionId, error);
        throw error;
      } finally {
        this.#work.delete(work);
      }
    } finally {
      own?.release();
    }
  }

  /** Aborts the session's work, if any, without waiting; `why` is what its log and row say. */
  cancel(sessionId: string, why: string = stopReasons.user): boolean {
    const hold = this.#holds.get(sessionId);
    if (hold) this.#holds.abort(hold, why);
    return Boolean(hold);
  }

  /**
   * Stops the session's running work and waits for it to end (its owner's state is final by then: a todo
   * failed, a plan as it was). 404 for an unknown session, 409 SESSION_NOT_RUNNING when nothing runs.
   */
  async stop(sessionId: string): Promise<SessionRecord> {
    const session = await this.#store.get(sessionId);
    const hold = this.#holds.get(sessionId);
    if (!hold) {
      const why =
        session.kind === 'task_init' && session.status === 'running'
          ? 'a task initialization runs no AI turn: cancel the task instead (POST /api/tasks/{id}/cancel)'
          : `it is ${session.status}`;
      throw new WorkbenchError(
        'SESSION_NOT_RUNNING',
        `Nothing is running in this session to stop (${why}).`,
        { session_id: sessionId, status: session.status },
      );
    }
    this.#holds.abort(hold, stopReasons.user);
    await hold.ended;
    return await this.#store.get(sessionId);
  }

  /**
   * For an owner being deleted: refuses any new work in these sessions from now on, stops what runs in
   * them and waits until it ended.
   */
  async retire(sessionIds: readonly string[]): Promise<void> {
    const ending: Promise<void>[] = [];
    for (const id of sessionIds) {
      this.#holds.retire(id);
      this.dropQueue(id);
      const hold = this.#holds.get(id);
      if (!hold) continue;
      this.#holds.abort(hold, stopReasons.deleted);
      ending.push(hold.ended);
    }
    await Promise.all(ending);
  }

  /** Stops every running turn and waits for them to end and their events to be in the logs (shutdown). */
  async close(): Promise<void> {
    this.#chat.close();
    for (const hold of this.#holds.all()) this.#holds.abort(hold, stopReasons.shutdown);
    await Promise.allSettled([...this.#work]);
    await this.#recorder.flush();
  }
}
