import { WorkbenchError } from '../errors.ts';
import { type Hub, sessionChannel } from './hub.ts';
import type { QueuedMessageView } from './types.ts';

/** A chat message waiting for the session's current work to end (kept in memory: lost on a restart). */
export type QueuedMessage = QueuedMessageView;

/** What `send` answers: the message ran at once (`queued: false`) or waits at `position` (1 = next). */
export interface SentMessage {
  session_id: string;
  message_id: string;
  queued: boolean;
  position?: number;
}

/** Who hears that a queued message's turn broke off (the WebSocket connection that sent it). */
export type OnTurnError = ((error: unknown) => void) | undefined;

/** A message taken off the queue, with who hears its turn break off. */
export interface TakenMessage {
  message: QueuedMessage;
  onError: OnTurnError;
}

/**
 * Per session, the chat messages sent while it was busy, next first, delivered in order as its next turns.
 * Every change is broadcast on `session:{id}` as a `queue` message with what waits now.
 */
export class MessageQueue {
  readonly #hub: Hub;
  readonly #queues = new Map<string, QueuedMessage[]>();
  readonly #onError = new Map<string, OnTurnError>();

  constructor(hub: Hub) {
    this.#hub = hub;
  }

  /** Queues the message last; answers its position (1 = next). */
  enqueue(sessionId: string, message: QueuedMessage, onError: OnTurnError): number {
    const queue = this.#queues.get(sessionId) ?? [];
    queue.push(message);
    this.#queues.set(sessionId, queue);
    this.#onError.set(message.id, onError);
    this.#publish(sessionId);
    return queue.length;
  }

  /** The messages waiting in the session's queue, next first. */
  list(sessionId: string): QueuedMessage[] {
    return [...(this.#queues.get(sessionId) ?? [])];
  }

  /** Whether a message waits in the session's queue. */
  has(sessionId: string): boolean {
    return (this.#queues.get(sessionId)?.length ?? 0) > 0;
  }

  /** Takes a message out before it is delivered (404 QUEUED_MESSAGE_NOT_FOUND otherwise); answers the rest. */
  cancel(sessionId: string, messageId: string): QueuedMessage[] {
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
    this.#publish(sessionId);
    return [...queue];
  }

  /** Takes the session's next message off the queue, with who hears its turn break off. */
  takeNext(sessionId: string): TakenMessage | undefined {
    const queue = this.#queues.get(sessionId);
    const message = queue?.shift();
    if (!message) return undefined;
    if (queue?.length === 0) this.#queues.delete(sessionId);
    const onError = this.#onError.get(message.id);
    this.#onError.delete(message.id);
    this.#publish(sessionId);
    return { message, onError };
  }

  /** Drops the session's queued messages (its owner is deleted, a message could not be delivered). */
  drop(sessionId: string): void {
    for (const message of this.#queues.get(sessionId) ?? []) this.#onError.delete(message.id);
    if (this.#queues.delete(sessionId)) this.#publish(sessionId);
  }

  /** Drops every session's queued messages (service shutdown). */
  dropAll(): void {
    for (const sessionId of [...this.#queues.keys()]) this.drop(sessionId);
  }

  #publish(sessionId: string): void {
    this.#hub.publish({
      type: 'queue',
      channel: sessionChannel(sessionId),
      session_id: sessionId,
      messages: [...(this.#queues.get(sessionId) ?? [])],
    });
  }
}
