import type { LogEntry, QueuedMessageView, SessionRecord } from './types.ts';

/** What the server pushes on a channel. */
export type ChannelMessage =
  | ({ type: 'event'; channel: string } & LogEntry)
  | { type: 'status'; channel: string; session: SessionRecord }
  | { type: 'queue'; channel: string; session_id: string; messages: QueuedMessageView[] }
  | { type: 'task'; channel: string; task: TaskSnapshot };

/**
 * What `task:{id}` carries on every change of a task: its state and the parts that change by themselves
 * (the review, the followed merge requests, the error), not its images or inputs.
 */
export interface TaskSnapshot {
  id: string;
  state: string;
  review: unknown;
  merge_requests: unknown;
  error: string | null;
  updated_at: string;
}

export type Listener = (message: ChannelMessage) => void;

/** The WebSocket manager's fan-out: channels (`session:{id}`) to their listeners. Synchronous on purpose. */
export class Hub {
  readonly #channels = new Map<string, Set<Listener>>();

  subscribe(channel: string, listener: Listener): () => void {
    let listeners = this.#channels.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#channels.set(channel, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#channels.delete(channel);
    };
  }

  publish(message: ChannelMessage): void {
    for (const listener of this.#channels.get(message.channel) ?? []) {
      try {
        listener(message);
      } catch {
        // one broken listener (a closed socket) must not stop the others
      }
    }
  }
}

export function taskChannel(taskId: string): string {
  return `task:${taskId}`;
}

export function sessionChannel(sessionId: string): string {
  return `session:${sessionId}`;
}
