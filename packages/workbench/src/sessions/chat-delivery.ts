import { newId } from '@keel/runtime/store';
import { WorkbenchError } from '../errors.ts';
import type { RunnerOutcome } from '../runners/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { nowIso } from '../store/index.ts';
import type { Holds, Reservation } from './holds.ts';
import type { MessageQueue, OnTurnError, QueuedMessage, SentMessage } from './message-queue.ts';
import type { SessionRecorder } from './session-recorder.ts';
import type { Sessions } from './sessions.ts';
import type { TurnInput } from './turn.ts';
import type { SessionKind, SessionRecord } from './types.ts';

/**
 * The prompt a chat message becomes in a kind of session, read when it is delivered (a queued one too):
 * a stage whose session's answers are its documents (the plan) frames it as a request for one.
 * Undefined: the message as it was typed.
 */
export type ChatFramer = (session: SessionRecord, content: string) => Promise<string | undefined>;

/** What delivering a chat message needs from the session runner. */
export interface ChatHost {
  /** Holds the session in one synchronous step (409 when it is held or retired). */
  hold(sessionId: string, what: string): Reservation;
  /** 409 unless a turn can start (model configured, session open and idle). */
  ready(sessionId: string): Promise<SessionRecord>;
  turn(sessionId: string, input: TurnInput, reservation: Reservation): Promise<RunnerOutcome>;
  /** Work `close` waits for. */
  track(work: Promise<unknown>): void;
}

/**
 * Chat messages: a follow-up turn at once when the session is idle, else queued (`message-queue.ts`) and
 * delivered as its next turn, held in the same step as the release of the work before it.
 */
export class ChatDelivery {
  readonly #host: ChatHost;
  readonly #store: Sessions;
  readonly #settings: SettingsService;
  readonly #recorder: SessionRecorder;
  readonly #holds: Holds;
  readonly #queue: MessageQueue;
  readonly #framers = new Map<SessionKind, ChatFramer>();
  #closing = false;

  constructor(deps: {
    host: ChatHost;
    store: Sessions;
    settings: SettingsService;
    recorder: SessionRecorder;
    holds: Holds;
    queue: MessageQueue;
  }) {
    this.#host = deps.host;
    this.#store = deps.store;
    this.#settings = deps.settings;
    this.#recorder = deps.recorder;
    this.#holds = deps.holds;
    this.#queue = deps.queue;
  }

  /** Registers how a chat message becomes a turn's prompt in a kind of session (see ChatFramer). */
  onChat(kind: SessionKind, framer: ChatFramer): void {
    this.#framers.set(kind, framer);
  }

  /** See `SessionRunner.send`. */
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
    if (!this.#holds.has(sessionId)) {
      const reservation = this.#host.hold(sessionId, 'answering a chat message');
      this.#deliver(reservation, message, onError, false);
      return { session_id: sessionId, message_id: message.id, queued: false };
    }
    this.#holds.assertOpen(sessionId);
    const position = this.#queue.enqueue(sessionId, message, onError);
    return { session_id: sessionId, message_id: message.id, queued: true, position };
  }

  /** Holds the session for its next queued message and starts its turn; false when none is delivered. */
  deliverNext(sessionId: string): boolean {
    if (!this.#queue.has(sessionId) || this.#closing || this.#holds.isRetired(sessionId)) return false;
    // Held at once, in the same step as the release before it; whether it can still run is checked next.
    const reservation = this.#host.hold(sessionId, 'answering a queued chat message');
    const next = this.#queue.takeNext(sessionId) as { message: QueuedMessage; onError: OnTurnError };
    this.#deliver(reservation, next.message, next.onError, true);
    return true;
  }

  /** Nothing queued is delivered any more, and what waits is dropped (service shutdown). */
  close(): void {
    this.#closing = true;
    this.#queue.dropAll();
  }

  /**
   * Whether a queued message can still run (the model may have been unset meanwhile); when it cannot, the
   * log says so and the rest of the queue is dropped too.
   */
  async #stillDeliverable(sessionId: string): Promise<boolean> {
    try {
      await this.#host.ready(sessionId).catch((error) => {
        // The session is held by this very delivery: only the other checks count.
        if (WorkbenchError.is(error) && error.code === 'SESSION_BUSY') return;
        throw error;
      });
      return true;
    } catch (error) {
      const why = WorkbenchError.is(error) ? error.message : (error as Error).message;
      try {
        this.#recorder.record(sessionId, {
          type: 'error',
          error: { code: 'QUEUED_MESSAGE_DROPPED', message: `The queued message was not delivered: ${why}` },
        });
      } catch {}
      this.#queue.drop(sessionId);
      return false;
    }
  }

  #deliver(reservation: Reservation, message: QueuedMessage, onError: OnTurnError, later: boolean): void {
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
      await this.#host.turn(reservation.sessionId, input, reservation);
    })()
      .catch((error) => onError?.(error))
      .finally(() => reservation.release());
    this.#host.track(work);
  }
}
