import type { CheckRun } from '@keel/protocol/workbench';
import { type CheckResult, repairPrompt } from '../../../checks/index.ts';
import { WorkbenchError } from '../../../errors.ts';
import { diff, restoreSnapshot, snapshot } from '../../../git/index.ts';
import type { RunnerOutcome } from '../../../runners/index.ts';
import type { Reservation, SessionRecord } from '../../../sessions/index.ts';
import { nowIso } from '../../../store/index.ts';
import { claim, createTaskSession, reserveSession, type TaskDeps, taskRunner } from '../../deps.ts';
import { moveTask } from '../../hand-off.ts';
import type { Task, Todo } from '../../types.ts';
import { baselineFor, changeBroke, noteEnvironment, todoEnvironmentError } from './baseline.ts';
import { codingPrompt } from './prompts.ts';
import { checksFailed, checksSummary, checkTodo } from './todo-checks.ts';

/** TODO_READY → CODING, with at least one todo. */
export async function startCoding(deps: TaskDeps, taskId: string): Promise<Task> {
  await deps.store.check(taskId, 'start_coding');
  if ((await deps.store.todos(taskId)).length === 0) {
    throw new WorkbenchError(
      'NO_TODOS',
      'The todo list is empty: generate it with POST /api/tasks/{id}/todo.',
    );
  }
  return await deps.store.move(taskId, 'start_coding');
}

/**
 * Checks that `todo` may run now: the task is CODING, the todo is pending or failed, and every todo before
 * it is done or skipped (strict order). Returns the task.
 */
async function assertRunnable(deps: TaskDeps, todo: Todo): Promise<Task> {
  const task = await deps.store.check(todo.task_id, 'execute_todo');
  if (todo.status !== 'pending' && todo.status !== 'failed') {
    throw new WorkbenchError(
      'INVALID_TODO_STATE',
      `Todo ${todo.position} is ${todo.status}: only a pending or failed todo can run.`,
      {
        todo_id: todo.id,
        status: todo.status,
      },
    );
  }
  const blocking = (await deps.store.todos(todo.task_id)).find(
    (each) => each.position < todo.position && each.status !== 'done' && each.status !== 'skipped',
  );
  if (blocking) {
    throw new WorkbenchError(
      'TODO_OUT_OF_ORDER',
      `Todo ${blocking.position} ('${blocking.title}') is ${blocking.status}: todos run strictly in order.`,
      { todo_id: todo.id, blocking_todo_id: blocking.id, blocking_status: blocking.status },
    );
  }
  return task;
}

/** How a todo is named in a busy message. */
function todoName(todo: Todo): string {
  return `todo ${todo.position} ('${todo.title}')`;
}

/**
 * Marks the todo running at once and holds its new session (so a second request, or a chat in the session,
 * is refused from the 202 on) and runs it in the background.
 */
export async function executeTodo(deps: TaskDeps, todoId: string) {
  const todo = await deps.store.todo(todoId);
  const task = await assertRunnable(deps, todo);
  const release = claim(deps, task.id, `running ${todoName(todo)}`);
  let session: SessionRecord;
  let reservation: Reservation;
  try {
    session = await todoSession(deps, task);
    reservation = await reserveSession(deps, task.id, session.id, `running ${todoName(todo)}`);
  } catch (error) {
    release();
    throw error;
  }
  const running = await deps.store.updateTodo(todoId, {
    status: 'running',
    session_id: session.id,
    error: null,
    error_code: null,
  });
  deps.background.run(async () => {
    try {
      await runTodo(deps, task, running, reservation);
    } finally {
      reservation.release();
      release();
    }
  });
  return { todo: running, session };
}

/**
 * Runs the remaining todos in order (a failed one is retried, a skipped one is left out, also when it was
 * skipped while the run went on), stopping at the first failure or stop. Answers at once; the todos'
 * statuses and sessions show the progress.
 */
export async function runAll(deps: TaskDeps, taskId: string) {
  const task = await deps.store.check(taskId, 'run_all');
  const remaining = async () =>
    (await deps.store.todos(taskId)).find((todo) => todo.status !== 'done' && todo.status !== 'skipped');
  const first = await remaining();
  if (!first) throw new WorkbenchError('NO_TODOS', 'No todo is left to run.');
  await assertRunnable(deps, first);
  const release = claim(deps, taskId, 'running all remaining todos');
  deps.background.run(async () => {
    try {
      for (;;) {
        const next = await remaining();
        if (!next || deps.busy.closing(taskId) || (await deps.store.get(taskId)).state !== 'CODING') return;
        const current = await deps.store.get(taskId);
        const session = await todoSession(deps, current);
        const reservation = await reserveSession(
          deps,
          taskId,
          session.id,
          `running ${todoName(next)} (run all)`,
        );
        try {
          const running = await deps.store.updateTodo(next.id, {
            status: 'running',
            session_id: session.id,
            error: null,
            error_code: null,
          });
          await runTodo(deps, current, running, reservation);
        } finally {
          reservation.release();
        }
        if ((await deps.store.todo(next.id)).status !== 'done') return;
      }
    } finally {
      release();
    }
  });
  return { task, todos: await deps.store.todos(taskId) };
}

/**
 * Skips a todo that is not running and not done, in any order (Run All then leaves it out). A failed one's
 * partial changes are undone first; a pending one is only marked, also while another todo runs.
 */
export async function skipTodo(deps: TaskDeps, todoId: string): Promise<Todo> {
  const todo = await deps.store.todo(todoId);
  const task = await deps.store.check(todo.task_id, 'skip_todo');
  if (todo.status !== 'pending' && todo.status !== 'failed') {
    throw new WorkbenchError(
      'INVALID_TODO_STATE',
      `Todo ${todo.position} is ${todo.status}: only a pending or failed todo can be skipped.`,
      { todo_id: todo.id, status: todo.status },
    );
  }
  if (todo.status === 'pending') {
    deps.busy.assertOpen(task.id);
    const skipped = await deps.store.updateTodo(todoId, { status: 'skipped' });
    await finishIfLast(deps, task.id);
    return skipped;
  }
  const release = claim(deps, task.id, `skipping ${todoName(todo)}`);
  try {
    if (todo.before) await restore(task, todo.before);
    const skipped = await deps.store.updateTodo(todoId, { status: 'skipped' });
    await finishIfLast(deps, task.id);
    return skipped;
  } finally {
    release();
  }
}

/**
 * The todo's work in its reserved session: the before-snapshot (or, on a retry, back to it), the turn, the
 * turns of the messages the user queued in the session meanwhile (steering the todo), and at the end the
 * after-snapshot and the todo's final status, written before the session's final status is broadcast.
 */
async function runTodo(deps: TaskDeps, task: Task, todo: Todo, reservation: Reservation): Promise<void> {
  try {
    let before = todo.before;
    // A retry starts from where the todo first started: its partial changes are put back.
    if (before) await restore(task, before);
    // A retry's checks are its own.
    await deps.store.updateTodo(todo.id, { checks: null, check_runs: [] });
    // The checks on the workspace before this todo changes it; checks that cannot run there would fail
    // the todo whatever its turn did: it fails now, with no turn spent.
    const baseline = await baselineFor(deps, task);
    const broken = baseline.results.filter((result) => result.outcome === 'environment');
    if (broken.length > 0) {
      await deps.store.updateTodo(todo.id, {
        status: 'failed',
        error: todoEnvironmentError(broken, true),
        error_code: 'ENVIRONMENT_ERROR',
      });
      await deps.runner.setStatus(reservation.sessionId, 'failed', {
        code: 'ENVIRONMENT_ERROR',
        message: `The checks cannot run in the workspace: ${broken.map((result) => result.reason).join('; ')}.`,
      });
      return;
    }
    if (!before) {
      before = {};
      for (const workspace of task.workspaces)
        before[workspace.repository] = await snapshot(workspace.dir, `todo-${todo.id}-before`);
      await deps.store.updateTodo(todo.id, { before });
    }
    const total = (await deps.store.todos(task.id)).length;
    const sessionId = reservation.sessionId;
    const repairTurns = (await deps.projects.get(task.project_id)).repair_turns;
    let repairsLeft = repairTurns;
    // Every run of the checks in this execution: the timeline the page shows (failed → repair 1 → passed).
    const runs: CheckRun[] = [];
    // The checks the change broke after the last turn, while a repair turn may still fix them.
    let failing: CheckResult[] = [];
    // The checks that could not run after the last turn: no repair turn can help.
    let environment: CheckResult[] = [];
    // The todo's final state.
    const complete = async (ended: RunnerOutcome) => {
      const after: Record<string, string> = {};
      try {
        for (const workspace of task.workspaces)
          after[workspace.repository] = await snapshot(workspace.dir, `todo-${todo.id}-after`);
      } catch (error) {
        await deps.store.updateTodo(todo.id, { status: 'failed', error: (error as Error).message });
        throw error;
      }
      if (ended.status === 'succeeded' && environment.length > 0) {
        const error = todoEnvironmentError(environment, false);
        await deps.store.updateTodo(todo.id, {
          status: 'failed',
          after,
          error,
          error_code: 'ENVIRONMENT_ERROR',
        });
        await noteEnvironment(deps, task.id, error);
      } else if (ended.status === 'succeeded' && failing.length === 0) {
        await deps.store.updateTodo(todo.id, { status: 'done', after, error: null });
        await noteEnvironment(deps, task.id, null);
        await finishIfLast(deps, task.id);
      } else {
        await deps.store.updateTodo(todo.id, {
          status: 'failed',
          after,
          error:
            failing.length > 0
              ? checksFailed(failing)
              : (stopped(ended) ?? ended.error?.message ?? ended.status),
          error_code: failing.length > 0 ? 'CHECKS_FAILED' : ended.status === 'cancelled' ? 'STOPPED' : null,
        });
      }
    };
    // Written before the session's end is broadcast, unless the todo goes on: a message the user queued
    // during the turn (it steers this todo), or checks that fail with repair turns left.
    const finish = async (ended: RunnerOutcome) => {
      if (ended.status === 'succeeded' && deps.runner.hasQueued(sessionId)) return;
      if (ended.status === 'succeeded') {
        const results = (await checkTodo(deps, task, before, baseline)) ?? [];
        environment = results.filter((result) => result.outcome === 'environment');
        // Repair turns are for what the change broke, and only when every check could run.
        failing = environment.length > 0 ? [] : results.filter(changeBroke);
        if (results.length > 0) {
          const passed = environment.length === 0 && failing.length === 0;
          runs.push({ repair: repairTurns - repairsLeft, passed, results, at: nowIso() });
          await deps.store.updateTodo(todo.id, { checks: results, check_runs: [...runs] });
          deps.runner.record(sessionId, {
            type: 'step',
            step: 'checks',
            status: passed ? 'done' : 'failed',
            detail: checksSummary(results),
          });
        }
        if (failing.length > 0 && repairsLeft > 0) return;
      }
      await complete(ended);
    };
    let outcome = await deps.runner.turn(
      sessionId,
      {
        prompt: codingPrompt(todo, total, task.workspaces),
        shownAs: `Todo ${todo.position}: ${todo.title}`,
        finish,
      },
      reservation,
    );
    for (;;) {
      if (outcome.status !== 'succeeded' || (await deps.store.todo(todo.id)).status !== 'running') break;
      const message = deps.runner.takeQueued(sessionId);
      if (message) {
        outcome = await deps.runner.turn(sessionId, { prompt: message.content, finish }, reservation);
        continue;
      }
      if (failing.length > 0 && repairsLeft > 0) {
        repairsLeft -= 1;
        const prompt = repairPrompt(failing, repairsLeft);
        // Logged as the workbench's step, not as the user's message: the user did not write it.
        const step = {
          step: 'repair',
          detail: `Repair ${repairTurns - repairsLeft} of ${repairTurns}: ${failing.map((result) => result.name).join(', ')} failed`,
        };
        outcome = await deps.runner.turn(sessionId, { prompt, step, finish }, reservation);
        continue;
      }
      // A queued message cancelled between the turn's end and here: the todo ends as it stands.
      await complete(outcome);
      break;
    }
    if ((await deps.store.todo(todo.id)).status === 'running') {
      await deps.store.updateTodo(todo.id, {
        status: 'failed',
        error: stopped(outcome) ?? outcome.error?.message ?? outcome.status,
        error_code: outcome.status === 'cancelled' ? 'STOPPED' : null,
      });
    }
  } catch (error) {
    await deps.store.updateTodo(todo.id, { status: 'failed', error: (error as Error).message });
  }
}

/** The todo's error when its turn was stopped: it says so, and that the todo can run again. */
function stopped(outcome: RunnerOutcome): string | undefined {
  return outcome.status === 'cancelled' ? 'Stopped: execute it again to retry, or skip it.' : undefined;
}

/** CODING → the next stage (05, which starts its reviewer) when every todo is done or skipped. */
async function finishIfLast(deps: TaskDeps, taskId: string): Promise<void> {
  const todos = await deps.store.todos(taskId);
  if (
    todos.every((todo) => todo.status === 'done' || todo.status === 'skipped') &&
    (await deps.store.get(taskId)).state === 'CODING'
  ) {
    await moveTask(deps, taskId, 'finish_coding');
  }
}

async function restore(task: Task, shas: Record<string, string>): Promise<void> {
  for (const workspace of task.workspaces) {
    const sha = shas[workspace.repository];
    if (sha) await restoreSnapshot(workspace.dir, sha);
  }
}

async function todoSession(deps: TaskDeps, task: Task) {
  return await createTaskSession(
    deps,
    task,
    'coding',
    await taskRunner(deps, task, await deps.projects.get(task.project_id)),
  );
}

/** The todo's changes per repository: before..after, or before..working tree while it runs or failed. */
export async function todoDiff(deps: TaskDeps, todoId: string) {
  const todo = await deps.store.todo(todoId);
  const task = await deps.store.get(todo.task_id);
  const repositories = [];
  if (todo.before && todo.status !== 'skipped') {
    for (const workspace of task.workspaces) {
      const from = todo.before[workspace.repository];
      if (!from) continue;
      const to = todo.status === 'done' ? todo.after?.[workspace.repository] : undefined;
      repositories.push({ repository: workspace.repository, ...(await diff(workspace.dir, from, to)) });
    }
  }
  return { todo_id: todo.id, status: todo.status, live: todo.status === 'running', repositories };
}
