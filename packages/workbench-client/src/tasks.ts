import type { ChannelMessage, Preview, Task, TaskSnapshot } from '@keel/protocol/workbench';
import { type ChannelOptions, followChannel } from './channel.ts';

type Follow = Omit<ChannelOptions, 'channel' | 'cursor' | 'onMessage' | 'signal'>;

/** A piece of a preview's output as `task:<id>` tells it: `seq` counts the chunks from 1, per start. */
export type PreviewOutput = Omit<Extract<ChannelMessage, { type: 'preview_log' }>, 'type' | 'channel'>;

/**
 * What `task:<id>` tells. Nothing of it is replayed: a follower reads what it missed (the previews' list and
 * logs) once it is subscribed.
 */
export interface TaskEvents {
  /** The task as it is now (on every (re)subscribe), then on every change of it. */
  onTask?: (task: TaskSnapshot) => void;
  /** A preview of the task started, became reachable, ended or was stopped. */
  onPreview?: (preview: Preview) => void;
  /** A preview's output as it comes (what `tasks.previewLog` answers holds everything up to its `seq`). */
  onPreviewLog?: (output: PreviewOutput) => void;
}

/** Hands one message of `task:<id>` to the follower's callback for it (others are not the task channel's). */
export function tellTask(message: ChannelMessage, events: TaskEvents): void {
  if (message.type === 'task') events.onTask?.(message.task);
  else if (message.type === 'preview') events.onPreview?.(message.preview);
  else if (message.type === 'preview_log') {
    events.onPreviewLog?.({ repository: message.repository, seq: message.seq, text: message.text });
  }
}

export interface WatchOptions extends TaskEvents {
  /** Ends the watch: the promise resolves. */
  signal?: AbortSignal;
}

/** Follows `task:<id>`: its state, review, merge requests and error on every change, and its previews. */
export function watchTask(follow: Follow, taskId: string, options: WatchOptions): Promise<void> {
  return followChannel({
    ...follow,
    channel: `task:${taskId}`,
    signal: options.signal,
    onMessage: (message) => {
      tellTask(message, options);
      return undefined;
    },
  });
}

/**
 * Resolves with the whole task (as `GET /api/tasks/{id}` answers it) once `until` accepts it: read again on
 * every change the `task:<id>` channel announces, one read at a time, the last change always read.
 */
export async function waitForTask(
  follow: Follow,
  taskId: string,
  read: (taskId: string) => Promise<Task>,
  until: (task: Task) => boolean,
  options: { signal?: AbortSignal } = {},
): Promise<Task> {
  const { signal } = options;
  signal?.throwIfAborted();
  const stop = new AbortController();
  const giveUp = () => stop.abort();
  signal?.addEventListener('abort', giveUp, { once: true });
  let found: Task | undefined;
  let failure: unknown;
  let reading = false;
  let changed = false;
  const check = async () => {
    if (reading) {
      changed = true;
      return;
    }
    reading = true;
    try {
      do {
        changed = false;
        const task = await read(taskId);
        if (until(task)) {
          found = task;
          stop.abort();
          return;
        }
      } while (changed && !stop.signal.aborted);
    } catch (error) {
      failure = error;
      stop.abort();
    } finally {
      reading = false;
    }
  };
  try {
    await watchTask(follow, taskId, { signal: stop.signal, onTask: () => void check() });
  } finally {
    signal?.removeEventListener('abort', giveUp);
  }
  if (found) return found;
  if (failure !== undefined) throw failure;
  signal?.throwIfAborted();
  throw new Error(`task ${taskId}: the wait ended without a matching state`);
}
