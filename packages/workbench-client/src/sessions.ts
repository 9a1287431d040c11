import type { LogEntry, QueuedMessage, Session } from '@keel/protocol/workbench';
import { type ChannelOptions, followChannel } from './channel.ts';

export interface SubscribeOptions {
  /** Replay the log after this seq (default 0: all of it). */
  after?: number;
  /** Each log entry once, in seq order, with no gap: across reconnections too. */
  onEvent?: (entry: LogEntry) => void;
  /** The session's row: once on every (re)subscribe, then on every change (`busy` included). */
  onStatus?: (session: Session) => void;
  /** The chat messages waiting for the session's current work, on every change. */
  onQueue?: (messages: QueuedMessage[]) => void;
  /** Ends the subscription: the promise resolves. */
  signal?: AbortSignal;
}

export interface WaitOptions {
  /** Gives up: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Also hear the log while waiting (replayed after `after`, default 0). */
  onEvent?: (entry: LogEntry) => void;
  after?: number;
}

/** The statuses a session's turn ends in. */
const ended = new Set<Session['status']>(['succeeded', 'failed', 'cancelled']);

/** The default of `waitFor`: the session's work ended and nothing holds it (no queued message runs next). */
export function sessionEnded(session: Session): boolean {
  return ended.has(session.status) && !session.busy;
}

type Follow = Omit<ChannelOptions, 'channel' | 'cursor' | 'onMessage' | 'signal'>;

/**
 * Follows `session:<id>`: replays the log after `after`, then live. The cursor is the last seq delivered,
 * so a reconnection asks for exactly what came after it; an entry at or below it is not delivered again,
 * and an entry beyond the next one (a gap) drops the connection to ask again from the cursor.
 */
export function subscribeSession(
  follow: Follow,
  sessionId: string,
  options: SubscribeOptions,
): Promise<void> {
  let last = options.after ?? 0;
  return followChannel({
    ...follow,
    channel: `session:${sessionId}`,
    cursor: () => last,
    signal: options.signal,
    onMessage: (message) => {
      switch (message.type) {
        case 'event': {
          if (message.seq <= last) return undefined;
          if (message.seq !== last + 1) return 'resubscribe';
          last = message.seq;
          options.onEvent?.({ seq: message.seq, timestamp: message.timestamp, event: message.event });
          return undefined;
        }
        case 'status':
          options.onStatus?.(message.session);
          return undefined;
        case 'queue':
          options.onQueue?.(message.messages);
          return undefined;
        default:
          return undefined;
      }
    },
  });
}

/** Resolves with the first status of the session that `until` accepts (default: its work ended). */
export async function waitForSession(
  follow: Follow,
  sessionId: string,
  until: (session: Session) => boolean,
  options: WaitOptions,
): Promise<Session> {
  const { signal } = options;
  signal?.throwIfAborted();
  const stop = new AbortController();
  const giveUp = () => stop.abort();
  signal?.addEventListener('abort', giveUp, { once: true });
  let found: Session | undefined;
  try {
    await subscribeSession(follow, sessionId, {
      ...(options.after === undefined ? {} : { after: options.after }),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      signal: stop.signal,
      onStatus: (session) => {
        if (found === undefined && until(session)) {
          found = session;
          stop.abort();
        }
      },
    });
  } finally {
    signal?.removeEventListener('abort', giveUp);
  }
  if (found) return found;
  signal?.throwIfAborted();
  throw new Error(`session ${sessionId}: the wait ended without a matching status`);
}
