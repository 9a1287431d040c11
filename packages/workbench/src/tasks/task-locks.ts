import { setTimeout as delay } from 'node:timers/promises';
import { WorkbenchError } from '../errors.ts';

/**
 * Per task: the one piece of non-session work running (init steps, a todo, run-all, submit), and whether the
 * task is being deleted (then nothing new starts, and the delete waits for what runs).
 */
export class TaskLocks {
  readonly #held = new Map<string, { what: string; ended: Promise<void> }>();
  readonly #closing = new Set<string>();

  /** What runs in the task, if anything. */
  get(taskId: string): string | undefined {
    return this.#held.get(taskId)?.what;
  }

  has(taskId: string): boolean {
    return this.#held.has(taskId);
  }

  /** True once a delete of the task began: work in progress stops at its next step. */
  closing(taskId: string): boolean {
    return this.#closing.has(taskId);
  }

  /** Refuses new work on a task being deleted (409 TASK_DELETING). */
  assertOpen(taskId: string): void {
    if (this.#closing.has(taskId)) {
      throw new WorkbenchError('TASK_DELETING', 'This task is being deleted: nothing new can start in it.', {
        task_id: taskId,
      });
    }
  }

  /** Holds the task for `what`; the release is idempotent. 409 TASK_BUSY when it is held already. */
  claim(taskId: string, what: string): () => void {
    this.assertOpen(taskId);
    const running = this.#held.get(taskId);
    if (running) {
      throw new WorkbenchError(
        'TASK_BUSY',
        `The task is busy with ${running.what}: wait for it to end, then try again.`,
        { task_id: taskId, running: running.what },
      );
    }
    let end = () => {};
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const hold = { what, ended };
    this.#held.set(taskId, hold);
    return () => {
      if (this.#held.get(taskId) === hold) this.#held.delete(taskId);
      end();
    };
  }

  /** Waits up to `ms` for the work the task holds to end; true when nothing runs in it any more. */
  async settled(taskId: string, ms: number): Promise<boolean> {
    const held = this.#held.get(taskId);
    if (!held) return true;
    const timer = new AbortController();
    await Promise.race([held.ended, delay(ms, undefined, { signal: timer.signal }).catch(() => undefined)]);
    timer.abort();
    return !this.#held.has(taskId);
  }

  /** Starts refusing new work on the task; answers when the work it holds (if any) has ended. */
  async close(taskId: string): Promise<void> {
    this.#closing.add(taskId);
    await this.#held.get(taskId)?.ended;
  }

  /** Forgets a task closed for deleting, once its row is gone (nothing can address it any more). */
  forget(taskId: string): void {
    this.#closing.delete(taskId);
  }
}
