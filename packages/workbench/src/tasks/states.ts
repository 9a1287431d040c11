import { type TaskState, taskStates } from '@keel/protocol/workbench/names';
import { WorkbenchError } from '../errors.ts';

/** The task states of spec section 3, and CANCELLED (the workbench's addition, see the decision record). */
export { type TaskState, taskStates };

/** The five stages of spec section 1, each with the task states that belong to it (the stepper's source). */
export const stages = [
  { number: '01', key: 'init', title: 'Initialization', states: ['CREATED', 'INITIALIZING'] },
  { number: '02', key: 'plan', title: 'Plan', states: ['PLANNING'] },
  { number: '03', key: 'todos', title: 'Todos', states: ['PLAN_LOCKED', 'TODO_READY'] },
  { number: '04', key: 'coding', title: 'Coding', states: ['CODING'] },
  { number: '05', key: 'review', title: 'Review', states: ['REVIEWING', 'DONE'] },
] as const satisfies readonly { number: string; key: string; title: string; states: readonly TaskState[] }[];

export interface Move {
  /** The action's name; `user` actions have an endpoint, `system` ones follow from finished work. */
  action: string;
  by: 'user' | 'system';
  from: readonly TaskState[];
  /** The state after the move; 'previous' is the state the task was cancelled from, 'same' no change. */
  to: TaskState | 'previous' | 'same';
  /** What triggers it. */
  trigger: string;
}

const active: TaskState[] = [
  'CREATED',
  'INITIALIZING',
  'PLANNING',
  'PLAN_LOCKED',
  'TODO_READY',
  'CODING',
  'REVIEWING',
];

/**
 * THE table of task moves: every change of a task's state is one of these rows (TaskStore.move is the only
 * writer of the state column). Moves within a state (retry, refine, run a todo) are rows too, so that an
 * action in the wrong state is refused by the same check. Nothing moves a task back a stage but `follow_up`,
 * which the user asks for explicitly: it appends todos (earlier ones stay done) and the task goes through
 * coding and review again on the same branch, updating the same merge request (decision record
 * 2026-11-27-review-and-merge-request-follow-up). Otherwise a stage is redone only through cancel and
 * re-open, which return to the same state.
 */
export const moves: readonly Move[] = [
  {
    action: 'init',
    by: 'user',
    from: ['CREATED', 'INITIALIZING'],
    to: 'INITIALIZING',
    trigger: 'POST /api/tasks/{id}/init (again: retries the steps not done)',
  },
  {
    action: 'confirm_init',
    by: 'user',
    from: ['INITIALIZING'],
    to: 'PLANNING',
    trigger: 'POST /api/tasks/{id}/confirm-init, every init step done',
  },
  {
    action: 'plan',
    by: 'user',
    from: ['PLANNING'],
    to: 'PLANNING',
    trigger: 'POST /api/tasks/{id}/plan (first draft or a refinement)',
  },
  {
    action: 'lock_plan',
    by: 'user',
    from: ['PLANNING'],
    to: 'PLAN_LOCKED',
    trigger: 'POST /api/tasks/{id}/lock-plan, plan.md exists',
  },
  {
    action: 'todo',
    by: 'user',
    from: ['PLAN_LOCKED', 'TODO_READY'],
    to: 'PLAN_LOCKED',
    trigger: 'POST /api/tasks/{id}/todo (regenerate, or adjust by message)',
  },
  {
    action: 'todos_ready',
    by: 'system',
    from: ['PLAN_LOCKED'],
    to: 'TODO_READY',
    trigger: 'the todo list was parsed and saved to todo.json',
  },
  {
    action: 'start_coding',
    by: 'user',
    from: ['TODO_READY'],
    to: 'CODING',
    trigger: 'POST /api/tasks/{id}/start-coding, at least one todo',
  },
  {
    action: 'execute_todo',
    by: 'user',
    from: ['CODING'],
    to: 'CODING',
    trigger: 'POST /api/todos/{id}/execute',
  },
  { action: 'skip_todo', by: 'user', from: ['CODING'], to: 'CODING', trigger: 'POST /api/todos/{id}/skip' },
  { action: 'run_all', by: 'user', from: ['CODING'], to: 'CODING', trigger: 'POST /api/tasks/{id}/run-all' },
  {
    action: 'finish_coding',
    by: 'system',
    from: ['CODING'],
    to: 'REVIEWING',
    trigger: 'the last todo is done or skipped',
  },
  {
    action: 'review',
    by: 'user',
    from: ['REVIEWING'],
    to: 'REVIEWING',
    trigger: 'POST /api/tasks/{id}/review (the reviewer again; by itself on entering review)',
  },
  {
    action: 'dismiss_finding',
    by: 'user',
    from: ['REVIEWING'],
    to: 'REVIEWING',
    trigger: 'POST /api/tasks/{id}/findings/{finding_id}/dismiss',
  },
  {
    action: 'commit_message',
    by: 'user',
    from: ['REVIEWING'],
    to: 'REVIEWING',
    trigger: 'POST /api/tasks/{id}/commit-message',
  },
  {
    action: 'submit_mr',
    by: 'user',
    from: ['REVIEWING'],
    to: 'REVIEWING',
    trigger: 'POST /api/tasks/{id}/submit-mr',
  },
  {
    action: 'submitted',
    by: 'system',
    from: ['REVIEWING'],
    to: 'DONE',
    trigger: 'every changed repository committed and pushed',
  },
  {
    action: 'refresh_merge_requests',
    by: 'user',
    from: ['CODING', 'REVIEWING', 'DONE'],
    to: 'same',
    trigger: 'POST /api/tasks/{id}/merge-requests/refresh (read now; followed by itself while open)',
  },
  {
    action: 'follow_up',
    by: 'user',
    from: ['REVIEWING', 'DONE'],
    to: 'CODING',
    trigger:
      'POST /api/tasks/{id}/follow-up: review findings, failed checks or MR comments become new todos on the same branch',
  },
  {
    action: 'cancel',
    by: 'user',
    from: active,
    to: 'CANCELLED',
    trigger: 'POST /api/tasks/{id}/cancel (stops its running sessions)',
  },
  {
    action: 'reopen',
    by: 'user',
    from: ['CANCELLED'],
    to: 'previous',
    trigger: 'POST /api/tasks/{id}/reopen',
  },
];

export type TaskAction = (typeof moves)[number]['action'];

/** The actions allowed from a state, in table order. */
export function allowedActions(state: TaskState): string[] {
  return moves.filter((move) => move.from.includes(state)).map((move) => move.action);
}

/** The state `action` leads to from `state`, or 409 INVALID_STATE with `{state, action, allowed}`. */
export function nextState(state: TaskState, action: string, cancelledFrom: TaskState | null): TaskState {
  const move = moves.find((each) => each.action === action && each.from.includes(state));
  if (!move) {
    throw new WorkbenchError(
      'INVALID_STATE',
      `A task in state ${state} cannot ${action.replaceAll('_', ' ')}; allowed now: ${allowedActions(state).join(', ') || 'nothing'}.`,
      { state, action, allowed: allowedActions(state) },
    );
  }
  if (move.to === 'same') return state;
  if (move.to !== 'previous') return move.to;
  return cancelledFrom ?? 'CREATED';
}

/** Whether `action` is allowed from `state` (no error). */
export function canMove(state: TaskState, action: string): boolean {
  return moves.some((move) => move.action === action && move.from.includes(state));
}
