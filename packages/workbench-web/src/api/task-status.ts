import type { FollowedMergeRequest, Task, Todo } from './types.ts';

export type Tone = 'ok' | 'bad' | 'busy' | 'idle' | 'warn' | 'muted' | 'info';

export interface StatusWords {
  label: string;
  tone: Tone;
  title: string;
}

/**
 * Whether the service works on the task now (its initialization, a todo list being written, a todo, the
 * review or the baseline checks): the page looks more often, and the tab title says so.
 */
export function taskWorking(task: Task): boolean {
  return (
    (task.state === 'INITIALIZING' && task.init.status === 'running') ||
    task.state === 'PLAN_LOCKED' ||
    task.review?.status === 'running' ||
    task.baseline?.status === 'running' ||
    task.todos.some((todo) => todo.status === 'running') ||
    task.sessions.some((session) => session.busy)
  );
}

/** A todo whose turn the user stopped: not a failure of the work (its status stays `failed`, to retry). */
export const stoppedByUser = (todo: Todo) => todo.status === 'failed' && todo.error_code === 'STOPPED';

/**
 * What a task is doing as the user should read it, from its state AND what runs in it: a task whose
 * initialization is done waits for the user (not "initializing"), a task in PLANNING without a draft has
 * no plan yet (not "planning"), a CODING task with nothing running waits for the user.
 */
export function taskStatus(task: Task): StatusWords {
  const running = task.todos.find((todo) => todo.status === 'running');
  const failed = task.todos.filter((todo) => todo.status === 'failed');
  const failedTodo = failed.some((todo) => !stoppedByUser(todo));
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
      if (running) {
        return {
          label: `coding · todo ${running.position} of ${task.todos.length}`,
          tone: 'busy',
          title: `Todo ${running.position} is running: ${running.title}`,
        };
      }
      if (failedTodo) return { label: 'todo failed', tone: 'bad', title: 'Retry or skip the failed todo.' };
      if (failed.length > 0) {
        return { label: 'stopped by you', tone: 'idle', title: 'Run the stopped todo again, or skip it.' };
      }
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
    default:
      // A state a stage registered beyond the five adds (the workbench README's "Adding a stage").
      return { label: task.state.toLowerCase().replaceAll('_', ' '), tone: 'info', title: 'See this stage.' };
  }
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The submitted merge requests as one line, as their provider last answered: "MR open · checks failing ·
 * 2 comments", "2 MRs merged". A task is not "done" while its merge request fails its checks; null before
 * submit (or when nothing is followed, as a push to a plain remote).
 */
export function mergeRequestSummary(followed: readonly FollowedMergeRequest[] | null): StatusWords | null {
  if (!followed || followed.length === 0) return null;
  const noun = followed.length === 1 ? 'MR' : `${followed.length} MRs`;
  const details = followed.map((mr) => `${mr.repository}: ${mergeRequestDetail(mr)}`).join('\n');
  const read = followed.flatMap((mr) => (mr.status ? [mr.status] : []));
  if (read.length === 0) {
    const failed = followed.some((mr) => mr.error);
    return {
      label: failed ? `${noun} not readable` : `${noun} not read yet`,
      tone: failed ? 'warn' : 'idle',
      title: details,
    };
  }
  const states = (['open', 'merged', 'closed'] as const)
    .map((state) => ({ state, count: read.filter((status) => status.state === state).length }))
    .filter(({ count }) => count > 0);
  const stateWords =
    states.length === 1
      ? `${noun} ${states[0]?.state}`
      : states.map(({ state, count }) => `${count} ${state}`).join(', ');
  const open = read.filter((status) => status.state === 'open');
  const checks = new Set(open.map((status) => status.checks_state));
  const comments = open.reduce((sum, status) => sum + status.comments.length, 0);
  const words = [stateWords];
  let tone: Tone =
    open.length > 0 ? 'info' : read.every((status) => status.state === 'merged') ? 'ok' : 'muted';
  if (checks.has('failed')) {
    words.push('checks failing');
    tone = 'bad';
  } else if (checks.has('pending')) {
    words.push('checks running');
    tone = 'busy';
  } else if (checks.has('passed')) words.push('checks passing');
  if (comments > 0) {
    words.push(plural(comments, 'comment'));
    if (tone !== 'bad') tone = 'warn';
  }
  if (read.length < followed.length) words.push(`${followed.length - read.length} not read`);
  return { label: words.join(' · '), tone, title: details };
}

function mergeRequestDetail(mr: FollowedMergeRequest): string {
  const status = mr.status;
  if (!status) return mr.error ? `could not be read (${mr.error})` : 'not read yet';
  const failed = status.checks.filter((check) => check.status === 'failed').map((check) => check.name);
  return [
    status.state,
    status.checks_state === 'none'
      ? 'no checks'
      : `checks ${status.checks_state}${failed.length ? ` (${failed.join(', ')})` : ''}`,
    plural(status.comments.length, 'comment'),
    ...(mr.error ? [`last read failed: ${mr.error}`] : []),
  ].join(', ');
}
