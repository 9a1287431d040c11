import type { Task } from './types.ts';

export type Tone = 'ok' | 'bad' | 'busy' | 'idle' | 'warn' | 'muted' | 'info';

/**
 * What a task is doing as the user should read it, from its state AND what runs in it: a task whose
 * initialization is done waits for the user (not "initializing"), a task in PLANNING without a draft has
 * no plan yet (not "planning"), a CODING task with nothing running waits for the user.
 */
export function taskStatus(task: Task): { label: string; tone: Tone; title: string } {
  const running = task.todos.some((todo) => todo.status === 'running');
  const failedTodo = task.todos.some((todo) => todo.status === 'failed');
  switch (task.state) {
    case 'CREATED':
      return { label: 'not started', tone: 'idle', title: 'Initialize the task to begin.' };
    case 'INITIALIZING':
      if (task.init.status === 'running') {
        return { label: 'initializing', tone: 'busy', title: 'Copying the repositories and knowledge.' };
      }
      if (task.init.status === 'done') {
        return { label: 'waiting for you', tone: 'warn', title: 'Initialized: confirm to start planning.' };
      }
      if (task.init.status === 'failed') {
        return { label: 'init failed', tone: 'bad', title: 'A step failed: retry the initialization.' };
      }
      return { label: 'not started', tone: 'idle', title: 'Initialize the task to begin.' };
    case 'PLANNING':
      if (task.plan) return { label: 'plan drafted', tone: 'warn', title: 'Refine the plan or lock it.' };
      // A plan session without a plan: being drafted, or its turn ended without one (stopped, failed).
      return task.plan_session_id
        ? {
            label: 'no plan yet',
            tone: 'busy',
            title: 'The plan is being drafted, or its draft ended without one.',
          }
        : { label: 'no plan yet', tone: 'idle', title: 'Draft the plan.' };
    case 'PLAN_LOCKED':
      return { label: 'writing todos', tone: 'busy', title: 'The plan is being broken into todos.' };
    case 'TODO_READY':
      return { label: 'todos ready', tone: 'warn', title: 'Review the todos, then start coding.' };
    case 'CODING':
      if (running) return { label: 'coding', tone: 'busy', title: 'A todo is running.' };
      if (failedTodo) return { label: 'todo failed', tone: 'bad', title: 'Retry or skip the failed todo.' };
      return { label: 'coding: paused', tone: 'warn', title: 'Run the next todo, or run all.' };
    case 'REVIEWING':
      if (task.results?.some((result) => result.error)) {
        return {
          label: 'submit failed',
          tone: 'bad',
          title: 'Some repositories were not pushed: submit again.',
        };
      }
      return { label: 'in review', tone: 'warn', title: 'Review the changes and submit the merge request.' };
    case 'DONE':
      return { label: 'done', tone: 'ok', title: 'The merge request is submitted.' };
    case 'CANCELLED':
      return { label: 'cancelled', tone: 'muted', title: 'Reopen the task to continue.' };
  }
}
