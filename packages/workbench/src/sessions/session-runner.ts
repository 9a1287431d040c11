import { newId } from '@keel/runtime/store';
import { WorkbenchError } from '../errors.ts';
import type {
  ModelSetting,
  Runner,
  RunnerConfig,
  RunnerErrorObject,
  RunnerEvent,
  RunnerImage,
  RunnerKind,
  RunnerOutcome,
} from '../runners/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { nowIso, storeFailure } from '../store/index.ts';
import { type Hub, sessionChannel } from './hub.ts';
import type { SessionLog } from './session-log.ts';
import type { Sessions } from './sessions.ts';
import {
  type QueuedMessageView,
  type SessionContext,
  type SessionEvent,
  type SessionKind,
  type SessionRecord,
  sessionView,
} from './types.ts';
import { addUsage } from './usage.ts';
import { withoutSecret } from './without-secret.ts';

export interface RunnerSource {
  get(kind: RunnerKind): Runner;
}

/** Work that follows every turn of one kind of session (writing plan.md, parsing the todo list, ...). */
export type TurnHandler = (session: SessionRecord, outcome: RunnerOutcome) => void | Promise<void>;

/**
 * The prompt a chat message becomes in a kind of session, read when it is delivered (a queued one too):
 * a stage whose session's answers are its documents (the plan) frames it as a request for one.
 * Undefined: the message as it was typed.
 */
export type ChatFramer = (session: SessionRecord, content: string) => Promise<string | undefined>;

export interface TurnInput {
  prompt: string;
  images?: RunnerImage[];
  /** Logged as the user's message instead of the full prompt (the prompt may carry a whole scan). */
  shownAs?: string;
  /**
   * A turn the workbench starts on its own (a repair): logged as this step (done: it was asked) instead of
   * a user message.
   */
  step?: { step: string; detail: string };
  /**
   * Work that belongs to the turn's end (a todo's after-snapshot and final status): it runs after the
   * kind's turn handler and before the session's final status is written and broadcast, so a client that
   * sees the session end reads the owner's final state. When it throws, the turn ends failed.
   */
  finish?: (outcome: RunnerOutcome) => void | Promise<void>;
}

/**
 * A session held for one piece of work, from the moment the work is accepted (the endpoint's 202) until it
 * ended, including what runs before its turn (fetching PRD links, a before-snapshot, a diff) and after it.
 * No other turn starts in the session meanwhile: a second request is refused with 409 SESSION_BUSY.
 */
export interface Reservation {
  readonly sessionId: string;
  /** What the session is busy with, in words ("writing the technical plan", "running todo 2 ('Add tests')"). */
  readonly what: string;
  /** Aborted when the work is stopped (POST /api/sessions/{id}/stop, a cancelled or deleted task). */
  readonly signal: AbortSignal;
  /** Ends the hold; whoever reserved calls it once the work is over, also when it failed. Idempotent. */
  release(): void;
}

/** A chat message waiting for the session's current work to end (kept in memory: lost on a restart). */
export type QueuedMessage = QueuedMessageView;

/** What `send` answers: the message ran at once (`queued: false`) or waits at `position` (1 = next). */
export interface SentMessage {
  session_id: string;
  message_id: string;
  queued: boolean;
  position?: number;
}

/** Why a session's work was aborted, in words: the turn's `cancelled` error and its log entry say it. */
export const stopReasons = {
  user: 'Stopped by the user.',
  task: 'Stopped: the task was cancelled.',
  deleted: 'Stopped: its task, project or conversation is being deleted.',
  shutdown: 'Stopped: the workbench is shutting down.',
} as const;

interface Hold {
  reservation: Reservation;
  controller: AbortController;
  /** Resolves when the hold is released. */
  ended: Promise<void>;
}

/** What a session of each kind is busy with when no caller named it (a chat message, a knowledge layer). */
const busyWith: Record<SessionKind, string> = {
  knowledge: 'generating project knowledge',
  task_init: 'initializing the task',
  plan: 'a turn of the plan conversation',
  coding: 'a turn of the todo conversation',
  reviewer: 'a turn of the reviewer',
  review: 'a turn of the review conversation',
  conversation: 'answering a message',
};

/**
 * The ONE session runner behind every AI interaction: resolve the runner, build the request (model from
 * settings, enabled MCP servers, skill dirs, workdir), run it, append each event to the session's JSONL log
 * and only then broadcast it on `session:{id}`, and keep the session's row up to date.
 */
export class SessionRunner {
  readonly #store: Sessions;
  readonly #log: SessionLog;
  readonly #hub: Hub;
  readonly #settings: SettingsService;
  readonly #runners: RunnerSource;
  /** Sessions held for work (reserved, maybe not yet in their turn). */
  readonly #active = new Map<string, Hold>();
  /** Sessions whose owner is being deleted: nothing starts in them any more. */
  readonly #retired = new Set<string>();
  readonly #work = new Set<Promise<unknown>>();
  readonly #afterTurn = new Map<SessionKind, TurnHandler>();
  readonly #framers = new Map<SessionKind, ChatFramer>();
  /** Per session, chat messages sent while it was busy, delivered in order as its next turns. */
  readonly #queues = new Map<string, QueuedMessage[]>();
  /** Per queued message, who hears that its turn broke off (the WebSocket connection that sent it). */
  readonly #onError = new Map<string, ((error: unknown) => void) | undefined>();
  /** Why a hold's work was aborted (stop, a cancelled task, a delete, shutdown), in words. */
  readonly #why = new WeakMap<AbortController, string>();
  #closing = false;

  constructor(deps: {
    store: Sessions;
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

  async create(
    kind: SessionKind,
    ownerId: string | null,
    runnerConfigId: string,
    context: SessionContext,
  ): Promise<SessionRecord> {
    const session = await this.#store.create({ kind, ownerId, runnerConfigId, context });
    this.#status(session);
    return session;
  }

  /** Appends one event and then broadcasts it: a subscriber never sees what the log does not hold. */
  record(sessionId: string, event: SessionEvent): void {
    const entry = this.#log.append(sessionId, event);
    this.#hub.publish({ type: 'event', channel: sessionChannel(sessionId), ...entry });
  }

  /** Sets a session's status (for sessions the workbench drives itself, like task init) and broadcasts it. */
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

  /** Registers how a chat message becomes a turn's prompt in a kind of session (see ChatFramer). */
  onChat(kind: SessionKind, framer: ChatFramer): void {
    this.#framers.set(kind, framer);
  }

  /** True while the session is held for work (from its 202 to the work's end). */
  isRunning(sessionId: string): boolean {
    return this.#active.has(sessionId);
  }

  /** 409 SESSION_BUSY naming what runs when the session is held for work (a hand edit must wait for it). */
  assertIdle(sessionId: string): void {
    const hold = this.#active.get(sessionId);
    if (hold) {
      const what = hold.reservation.what;
      throw new WorkbenchError(
        'SESSION_BUSY',
        `This session is still busy with ${what}. Wait for it to finish, or stop it (POST /api/sessions/${sessionId}/stop), then try again.`,
        { session_id: sessionId, running: what },
      );
    }
  }

  /**
   * Checks that a turn can start (model configured, session open and idle), so an endpoint can refuse with
   * 409 before answering 202. Returns the session.
   */
  async ready(sessionId: string): Promise<SessionRecord> {
    const session = await this.#store.get(sessionId);
    this.#assertOpen(sessionId);
    this.assertIdle(sessionId);
    await this.#settings.model(await this.#settings.runnerConfig(session.runner_config_id));
    return session;
  }

  #assertOpen(sessionId: string): void {
    if (this.#retired.has(sessionId)) {
      throw new WorkbenchError(
        'SESSION_CLOSED',
        'This session belongs to work that is being deleted: nothing more can run in it.',
        { session_id: sessionId },
      );
    }
  }

  /**
   * Holds the session for one piece of work (await it before answering 202): 409 SESSION_BUSY when it is
   * held already. The caller runs the work, passes the reservation to `turn` and releases it in a `finally`.
   */
  async reserve(sessionId: string, what?: string): Promise<Reservation> {
    const session = await this.ready(sessionId);
    return this.#hold(sessionId, what ?? busyWith[session.kind]);
  }

  /**
   * Takes the hold in one synchronous step: the open and idle checks and the hold itself, with no await
   * between them for another request to slip into.
   */
  #hold(sessionId: string, what: string): Reservation {
    this.#assertOpen(sessionId);
    this.assertIdle(sessionId);
    const controller = new AbortController();
    let end = () => {};
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const reservation: Reservation = {
      sessionId,
      what,
      signal: controller.signal,
      release: () => {
        if (this.#active.get(sessionId)?.reservation === reservation) {
          this.#active.delete(sessionId);
          // The next queued message is held at once, so nothing else slips in before it.
          if (!this.#deliverNext(sessionId)) this.#quietStatus(sessionId);
        }
        end();
      },
    };
    this.#active.set(sessionId, { reservation, controller, ended });
    this.#quietStatus(sessionId);
    return reservation;
  }

  /**
   * A chat message (WebSocket `chat`, `POST /api/sessions/{id}/messages`): a follow-up turn now when the
   * session is idle, else queued and delivered as its next turn once the current work ended (in order,
   * one turn each). `onError` hears a turn that broke off (its log or row could not be written).
   */
  async send(sessionId: string, content: string, onError?: (error: unknown) => void): Promise<SentMessage> {
    const session = await this.#store.get(sessionId);
    if (session.kind === 'task_init') {
      throw new WorkbenchError(
        'INVALID_PARAMS',
        'A task init session runs no AI: chat in a plan, coding, review or conversation session.',
        { session_id: sessionId },
      );
    }
    await this.#settings.model(await this.#settings.runnerConfig(session.runner_config_id));
    // From here on synchronous: idle now means a turn now, busy means the queue, nothing between.
    const message: QueuedMessage = { id: newId('wmsg'), content, queued_at: nowIso() };
    if (!this.#active.has(sessionId)) {
      const reservation = this.#hold(sessionId, 'answering a chat message');
      this.#deliver(reservation, message, onError, false);
      return { session_id: sessionId, message_id: message.id, queued: false };
    }
    this.#assertOpen(sessionId);
    const queue = this.#queues.get(sessionId) ?? [];
    queue.push(message);
    this.#queues.set(sessionId, queue);
    this.#onError.set(message.id, onError);
    this.#publishQueue(sessionId);
    return { session_id: sessionId, message_id: message.id, queued: true, position: queue.length };
  }

  /** The messages waiting in the session's queue, next first (404 for an unknown session). */
  async queue(sessionId: string): Promise<QueuedMessage[]> {
    await this.#store.get(sessionId);
    return this.queued(sessionId);
  }

  /** The messages waiting in the queue of a session known to exist, next first. */
  queued(sessionId: string): QueuedMessage[] {
    return [...(this.#queues.get(sessionId) ?? [])];
  }

  /** Takes a message out of the queue before it is delivered: 404 QUEUED_MESSAGE_NOT_FOUND otherwise. */
  async unqueue(sessionId: string, messageId: string): Promise<QueuedMessage[]> {
    await this.#store.get(sessionId);
    const queue = this.#queues.get(sessionId) ?? [];
    const index = queue.findIndex((message) => message.id === messageId);
    if (index < 0) {
      throw new WorkbenchError(
        'QUEUED_MESSAGE_NOT_FOUND',
        `No message '${messageId}' waits in this session's queue (it was delivered already, cancelled, or never queued).`,
        { session_id: sessionId, message_id: messageId },
      );
    }
    queue.splice(index, 1);
    this.#onError.delete(messageId);
    if (queue.length === 0) this.#queues.delete(sessionId);
    this.#publishQueue(sessionId);
    return [...queue];
  }

  /** Whether a message waits in the session's queue. */
  hasQueued(sessionId: string): boolean {
    return (this.#queues.get(sessionId)?.length ?? 0) > 0;
  }

  /**
   * Takes the session's next queued message for its holder to deliver within its own work (a todo goes on
   * with the user's message before it is done), instead of as a turn after the work ended.
   */
  takeQueued(sessionId: string): QueuedMessage | undefined {
    const queue = this.#queues.get(sessionId);
    const message = queue?.shift();
    if (!message) return undefined;
    if (queue?.length === 0) this.#queues.delete(sessionId);
    this.#onError.delete(message.id);
    this.#publishQueue(sessionId);
    return message;
  }

  /** Drops the session's queued messages (its owner is deleted). */
  dropQueue(sessionId: string): void {
    for (const message of this.#queues.get(sessionId) ?? []) this.#onError.delete(message.id);
    if (this.#queues.delete(sessionId)) this.#publishQueue(sessionId);
  }

  /** Holds the session for its next queued message and starts its turn; false when none is delivered. */
  #deliverNext(sessionId: string): boolean {
    const queue = this.#queues.get(sessionId);
    if (!queue?.length || this.#closing || this.#retired.has(sessionId)) return false;
    const message = queue.shift() as QueuedMessage;
    if (queue.length === 0) this.#queues.delete(sessionId);
    const onError = this.#onError.get(message.id);
    this.#onError.delete(message.id);
    // Held at once, in the same step as the release before it; whether it can still run is checked next.
    const reservation = this.#hold(sessionId, 'answering a queued chat message');
    this.#publishQueue(sessionId);
    this.#deliver(reservation, message, onError, true);
    return true;
  }

  /**
   * Whether a queued message can still run (the model may have been unset meanwhile); when it cannot, the
   * log says so and the rest of the queue is dropped too.
   */
  async #stillDeliverable(sessionId: string): Promise<boolean> {
    try {
      await this.ready(sessionId).catch((error) => {
        // The session is held by this very delivery: only the other checks count.
        if (WorkbenchError.is(error) && error.code === 'SESSION_BUSY') return;
        throw error;
      });
      return true;
    } catch (error) {
      const why = WorkbenchError.is(error) ? error.message : (error as Error).message;
      try {
        this.record(sessionId, {
          type: 'error',
          error: { code: 'QUEUED_MESSAGE_DROPPED', message: `The queued message was not delivered: ${why}` },
        });
      } catch {}
      this.dropQueue(sessionId);
      return false;
    }
  }

  #deliver(
    reservation: Reservation,
    message: QueuedMessage,
    onError: ((error: unknown) => void) | undefined,
    later: boolean,
  ): void {
    const work = (async () => {
      // A queued turn starts after whoever waited for the previous work's end (a stop) read its final row.
      if (later) {
        await new Promise((resolve) => setImmediate(resolve));
        if (!(await this.#stillDeliverable(reservation.sessionId))) return;
      }
      const session = await this.#store.get(reservation.sessionId);
      const framed = await this.#framers.get(session.kind)?.(session, message.content);
      const input =
        framed === undefined ? { prompt: message.content } : { prompt: framed, shownAs: message.content };
      await this.turn(reservation.sessionId, input, reservation);
    })()
      .catch((error) => onError?.(error))
      .finally(() => reservation.release());
    this.#work.add(work);
    void work.finally(() => this.#work.delete(work));
  }

  #publishQueue(sessionId: string): void {
    this.#hub.publish({
      type: 'queue',
      channel: sessionChannel(sessionId),
      session_id: sessionId,
      messages: [...(this.#queues.get(sessionId) ?? [])],
    });
  }

  /** Broadcasts the row (its `busy` changed); a row that cannot be read (a store fault) is not broadcast. */
  #quietStatus(sessionId: string): void {
    this.#store.find(sessionId).then(
      (session) => session && this.#status(session),
      () => {},
    );
  }

  /**
   * Runs one turn to its end (a follow-up turn resumes the runner's own session). Without a reservation it
   * holds the session for the turn itself. Never throws for the agent's failures.
   */
  async turn(sessionId: string, input: TurnInput, reservation?: Reservation): Promise<RunnerOutcome> {
    const own = reservation ? undefined : await this.reserve(sessionId);
    const held = this.#active.get(sessionId);
    try {
      if (!held || held.reservation !== (reservation ?? own)) {
        throw new WorkbenchError(
          'SERVER_ERROR',
          `The reservation of session '${sessionId}' was released before its turn.`,
        );
      }
      const session = await this.#store.get(sessionId);
      const work = this.#turn(session, input, held.controller);
      this.#work.add(work);
      try {
        return await work;
      } catch (error) {
        await this.#brokeOff(sessionId, error);
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
    const hold = this.#active.get(sessionId);
    if (hold) this.#abort(hold, why);
    return Boolean(hold);
  }

  #abort(hold: Hold, why: string): void {
    if (!hold.controller.signal.aborted) this.#why.set(hold.controller, why);
    hold.controller.abort();
  }

  /**
   * Stops the session's running work and waits for it to end (its owner's state is final by then: a todo
   * failed, a plan as it was). 404 for an unknown session, 409 SESSION_NOT_RUNNING when nothing runs.
   */
  async stop(sessionId: string): Promise<SessionRecord> {
    const session = await this.#store.get(sessionId);
    const hold = this.#active.get(sessionId);
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
    this.#abort(hold, stopReasons.user);
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
      this.#retired.add(id);
      this.dropQueue(id);
      const hold = this.#active.get(id);
      if (!hold) continue;
      this.#abort(hold, stopReasons.deleted);
      ending.push(hold.ended);
    }
    await Promise.all(ending);
  }

  /** Stops every running turn and waits for them to end (service shutdown). */
  async close(): Promise<void> {
    this.#closing = true;
    for (const id of [...this.#queues.keys()]) this.dropQueue(id);
    for (const hold of this.#active.values()) this.#abort(hold, stopReasons.shutdown);
    await Promise.allSettled([...this.#work]);
  }

  async #turn(session: SessionRecord, input: TurnInput, controller: AbortController): Promise<RunnerOutcome> {
    const config = await this.#settings.runnerConfig(session.runner_config_id);
    const model = await this.#settings.model(config);
    const running = await this.#store.update(session.id, {
      status: 'running',
      runner: config.kind,
      error: null,
      ended_at: null,
    });
    this.#status(running);
    this.record(
      session.id,
      input.step
        ? { type: 'step', status: 'done', ...input.step }
        : { type: 'message', role: 'user', content: input.shownAs ?? input.prompt },
    );
    // The one place a runner's words are scrubbed of the model key before anything keeps or sends them.
    const secret = model.apiKey;
    const emit = async (raw: RunnerEvent) => {
      const event = withoutSecret(raw, secret);
      this.record(session.id, event);
      if (event.type === 'runner_started' && (event.runner_session_id || event.run_id)) {
        await this.#store.update(session.id, {
          ...(event.runner_session_id ? { runner_session_id: event.runner_session_id } : {}),
          ...(event.run_id ? { run_id: event.run_id } : {}),
        });
      }
    };
    let outcome: RunnerOutcome;
    if (!controller.signal.aborted)
      outcome = withoutSecret(await this.#run(session, input, config, model, controller, emit), secret);
    else outcome = { status: 'cancelled', output: '' }; // stopped in the gap between its 202 and its turn
    if (controller.signal.aborted && outcome.status !== 'succeeded') {
      // A stop is not a runner failure: the log and the row say who stopped it, whatever the runner said.
      const stopped = {
        code: 'CANCELLED',
        message: this.#why.get(controller) ?? stopReasons.user,
        ...(outcome.error && outcome.error.code !== 'CANCELLED'
          ? { details: { runner_error: outcome.error } }
          : {}),
      };
      this.record(session.id, { type: 'error', error: stopped });
      outcome = { ...outcome, status: 'cancelled', error: stopped };
    }
    const handler = this.#afterTurn.get(session.kind);
    const { finish } = input;
    const steps = [
      handler && ((ended: RunnerOutcome) => handler({ ...session, runner: config.kind }, ended)),
      finish,
    ];
    for (const step of steps) {
      if (!step) continue;
      try {
        await step(outcome);
      } catch (error) {
        const failure = WorkbenchError.is(error)
          ? error.toJSON()
          : { code: 'SERVER_ERROR', message: (error as Error).message };
        this.record(session.id, { type: 'error', error: failure });
        outcome = { ...outcome, status: 'failed', error: failure };
      }
    }
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
    this.#status(ended);
    return outcome;
  }

  /** The runner's run; only a broken request throws (the contract), and it still ends as a failed turn. */
  async #run(
    session: SessionRecord,
    input: TurnInput,
    config: RunnerConfig,
    model: ModelSetting,
    controller: AbortController,
    emit: (event: RunnerEvent) => Promise<void>,
  ): Promise<RunnerOutcome> {
    try {
      const runner = this.#runners.get(config.kind);
      return await runner.run(
        {
          prompt: input.prompt,
          workdir: session.context.workdir,
          ...(session.context.allowedRoots ? { allowedRoots: session.context.allowedRoots } : {}),
          ...(session.context.instructions ? { instructions: session.context.instructions } : {}),
          ...(input.images?.length ? { images: input.images } : {}),
          ...(session.runner_session_id ? { resumeSessionId: session.runner_session_id } : {}),
          model,
          mcpServers: (await this.#settings.stored()).mcp_servers.filter((server) => server.enabled),
          skillDirs: session.context.skillDirs,
          ...(session.context.readOnly ? { readOnly: true } : {}),
          config,
          signal: controller.signal,
        },
        emit,
      );
    } catch (error) {
      // Only a broken request throws (the contract); it still ends as a failed session, never a hang.
      const failure = withoutSecret(
        WorkbenchError.is(error)
          ? error.toJSON()
          : { code: 'RUNNER_FAILED', message: (error as Error).message },
        model.apiKey,
      );
      this.record(session.id, { type: 'error', error: failure });
      return { status: 'failed', output: '', error: failure };
    }
  }

  /**
   * A turn that broke off because the workbench could not record it (its log or its row: a full disk, a
   * read-only database) ends failed rather than `running` forever, when the row can still be written.
   */
  async #brokeOff(sessionId: string, error: unknown): Promise<void> {
    const failure = WorkbenchError.is(error) ? error : storeFailure(error);
    try {
      const session = await this.#store.update(sessionId, {
        status: 'failed',
        error: failure?.toJSON() ?? { code: 'SERVER_ERROR', message: (error as Error).message },
        last_seq: this.#log.lastSeq(sessionId),
        ended_at: new Date().toISOString(),
      });
      this.#status(session);
    } catch {}
  }

  #status(session: SessionRecord): void {
    this.#hub.publish({ type: 'status', channel: sessionChannel(session.id), session: sessionView(session) });
  }
}
