import type { Task } from '@keel/protocol/workbench';

/** Why a task waits for the user; the kinds are the moments the issue names. */
export type AttentionKind =
  | 'init_done'
  | 'init_failed'
  | 'plan_drafted'
  | 'todos_ready'
  | 'todo_failed'
  | 'coding_paused'
  | 'review_done'
  | 'submit_failed'
  | 'checks_failed';

export interface Attention {
  kind: AttentionKind;
  /** What the notification says: what happened, then what to do (the SPA's words, `task-status.ts`). */
  title: string;
  body: string;
}

/**
 * Whether `task` waits for the user now, and why; undefined while the service works on it or nothing is
 * asked of anyone. Read from the task as the service answers it, as the SPA's status words are, so the two
 * agree: the shell notifies once per change of this answer (`AttentionTracker`).
 */
export function attentionOf(task: Task): Attention | undefined {
  const busy =
    task.sessions.some((session) => session.busy) ||
    task.todos.some((todo) => todo.status === 'running') ||
    task.review?.status === 'running';
  if (busy) return undefined;
  const name = task.description.split('\n')[0]?.slice(0, 80) ?? task.id;
  const say = (kind: AttentionKind, what: string, next: string): Attention => ({
    kind,
    title: `${what}: ${name}`,
    body: next,
  });
  const failedChecks = (task.merge_requests ?? []).some(
    (mr) => mr.status?.state === 'open' && mr.status.checks_state === 'failed',
  );
  switch (task.state) {
    case 'INITIALIZING':
      if (task.init.status === 'done') return say('init_done', 'Initialized', 'Confirm to start planning.');
      if (task.init.status === 'failed')
        return say('init_failed', 'Init failed', 'Retry the initialization.');
      return undefined;
    case 'PLANNING':
      return task.plan ? say('plan_drafted', 'Plan drafted', 'Refine the plan or lock it.') : undefined;
    case 'TODO_READY':
      return say('todos_ready', 'Todos ready', 'Review the todos, then start coding.');
    case 'CODING': {
      const failed = task.todos.find((todo) => todo.status === 'failed' && todo.error_code !== 'STOPPED');
      if (failed) return say('todo_failed', `Todo ${failed.position} failed`, 'Retry or skip it.');
      if (task.todos.some((todo) => todo.status === 'pending')) {
        return say('coding_paused', 'Coding paused', 'Run the next todo, or run all.');
      }
      return undefined;
    }
    case 'REVIEWING':
      if (failedChecks) return say('checks_failed', 'MR checks failed', 'Look at the failing checks.');
      if (task.results?.some((result) => result.error)) {
        return say('submit_failed', 'Submit failed', 'Some repositories were not pushed: submit again.');
      }
      if (task.results) return undefined; // submitted: the merge request is followed
      return say('review_done', 'Review done', 'Review the changes and submit the merge request.');
    case 'DONE':
      return failedChecks
        ? say('checks_failed', 'MR checks failed', 'Look at the failing checks.')
        : undefined;
    default:
      return undefined;
  }
}

/**
 * Each task's attention as last seen: tells which changes deserve a notification (a task newly waiting,
 * or waiting for something else than before) and how many tasks wait now. Tasks seen waiting at the
 * first look (before the shell started) count but are not announced.
 */
export class AttentionTracker {
  readonly #seen = new Map<string, AttentionKind | undefined>();
  #primed = false;

  /** The first list of tasks: remembered, not announced. */
  prime(tasks: readonly Task[]): void {
    for (const task of tasks) this.#seen.set(task.id, attentionOf(task)?.kind);
    this.#primed = true;
  }

  /** A task as it is now: its attention when it is new since the last look, else undefined. */
  update(task: Task): Attention | undefined {
    const attention = attentionOf(task);
    const before = this.#seen.get(task.id);
    this.#seen.set(task.id, attention?.kind);
    if (!this.#primed || !attention || attention.kind === before) return undefined;
    return attention;
  }

  forget(taskId: string): void {
    this.#seen.delete(taskId);
  }

  /** How many tasks wait for the user. */
  get waiting(): number {
    let count = 0;
    for (const kind of this.#seen.values()) if (kind) count++;
    return count;
  }
}
