import type { ChannelMessage } from '@keel/protocol/workbench';

export type { ChannelMessage, ProjectSnapshot, TaskSnapshot } from '@keel/protocol/workbench';

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

export function projectChannel(projectId: string): string {
  return `project:${projectId}`;
}
