import type { Task } from '@keel/protocol/workbench';
import { createWorkbenchClient } from '@keel/workbench-client';
import { type Attention, AttentionTracker } from './attention.ts';

/** How often the task list is read again to find tasks created since (the service announces no new task). */
const listEveryMs = 10_000;
/** States in which nothing more is asked of the user (a DONE task's merge request is still followed). */
const settled = new Set(['CANCELLED']);

export interface TaskWatch {
  stop(): void;
}

export interface WatchOptions {
  url: string;
  apiKey?: string | undefined;
  /** A task newly waits for the user. */
  onAttention(task: Task, attention: Attention): void;
  /** How many tasks wait for the user, on every change. */
  onWaiting(count: number): void;
  /** A read failed (the service restarting, say): said once per kind of failure, then retried. */
  onProblem?(message: string): void;
}

/**
 * Follows every task of the workbench: each open task's channel (`task:{id}`, on every change) and the task
 * list now and then for new ones, and tells what newly waits for the user. It starts from the list as it
 * is: tasks that already wait are counted, not announced.
 */
export function watchTasks(options: WatchOptions): TaskWatch {
  const client = createWorkbenchClient({ baseUrl: options.url, apiKey: options.apiKey });
  const socket = client.socket();
  const tracker = new AttentionTracker();
  const following = new Map<string, () => void>();
  let stopped = false;
  let lastProblem = '';
  let waiting = -1;

  const tellWaiting = () => {
    if (tracker.waiting !== waiting) {
      waiting = tracker.waiting;
      options.onWaiting(waiting);
    }
  };
  const problem = (error: unknown) => {
    const message = (error as Error).message;
    if (message !== lastProblem) options.onProblem?.(message);
    lastProblem = message;
  };
  const look = (task: Task) => {
    const attention = tracker.update(task);
    if (attention) options.onAttention(task, attention);
    tellWaiting();
  };
  const follow = (task: Task) => {
    if (following.has(task.id) || settled.has(task.state)) return;
    const stop = socket.subscribeTask(task.id, {
      // The channel carries a snapshot of the task; its todos and sessions need the whole task.
      onTask: () => {
        client.tasks.get(task.id).then((full) => !stopped && look(full), problem);
      },
      onError: (error) => problem(new Error(error.message)),
    });
    following.set(task.id, stop);
  };
  const list = async (first: boolean) => {
    try {
      const tasks = await client.tasks.list();
      if (stopped) return;
      lastProblem = '';
      if (first) tracker.prime(tasks);
      const present = new Set(tasks.map((task) => task.id));
      for (const [id, stop] of following) {
        if (!present.has(id)) {
          stop();
          following.delete(id);
          tracker.forget(id);
        }
      }
      for (const task of tasks) {
        if (!first) look(task);
        follow(task);
      }
      tellWaiting();
    } catch (error) {
      problem(error);
    }
  };

  let primed = list(true);
  const timer = setInterval(() => {
    primed = primed.then(() => list(false));
  }, listEveryMs);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      for (const stop of following.values()) stop();
      socket.close();
    },
  };
}
