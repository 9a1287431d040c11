import type { Task, TaskSnapshot } from '@keel/protocol/workbench';
import { type ChannelOptions, followChannel } from './channel.ts';

type Follow = Omit<ChannelOptions, 'channel' | 'cursor' | 'onMessage' | 'signal'>;

export interface WatchOptions {
  /** The task as it is now (on every (re)subscribe), then on every change of it. */
  onTask: (task: TaskSnapshot) => void;
  /** Ends the watch: the promise resolves. */
  signal?: AbortSignal;
}

/** Follows `task:<id>`: its state, review, merge requests and error on every change. */
export function watchTask(follow: Follow, taskId: string, options: WatchOptions): Promise<void> {
  return followChannel({
    ...follow,
    channel: `task:${taskId}`,
    signal: options.signal,
    onMessage: (message) => {
      if (message.type === 'task') options.onTask(message.task);
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
