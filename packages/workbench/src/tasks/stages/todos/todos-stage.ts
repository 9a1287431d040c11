import { join } from 'node:path';
import type { RunnerOutcome } from '../../../runners/index.ts';
import type { Reservation, SessionRecord } from '../../../sessions/index.ts';
import { reserveSession, type TaskDeps } from '../../deps.ts';
import { reservedTurn, taskOfSucceededTurn } from '../../stage-errors.ts';
import { readPlan, writeTaskFile } from '../../task-files.ts';
import type { Task } from '../../types.ts';
import { planSession } from '../plan/plan-session.ts';
import { todoAdjustPrompt, todoPrompt } from './prompts.ts';
import { parseTodoList } from './todo-list.ts';

// Stage 03 works in stage 02's session (one runner conversation): the locked plan is broken into todos there.

/**
 * Generates the todo list again, or adjusts it by `message` (PLAN_LOCKED or TODO_READY). `locked`: the
 * reservation `lockPlan` took before it moved the task.
 */
export async function startTodos(
  deps: TaskDeps,
  taskId: string,
  message: string | undefined,
  locked?: Reservation,
) {
  let task = locked ? await deps.store.get(taskId) : await deps.store.check(taskId, 'todo');
  const session = await planSession(deps, task);
  const reservation =
    locked ??
    (await reserveSession(
      deps,
      taskId,
      session.id,
      message ? 'adjusting the todo list' : 'generating the todo list',
    ));
  try {
    const plan = readPlan(deps.paths.taskDir(taskId)) ?? '';
    if (!locked) task = await deps.store.move(taskId, 'todo');
    const prompt = message ? todoAdjustPrompt(message, await deps.store.todos(taskId)) : todoPrompt(plan);
    const step = {
      what: message ? 'Adjusting the todo list' : 'Breaking the plan into todos',
      retry: `POST /api/tasks/${taskId}/todo`,
    };
    deps.background.run(() =>
      reservedTurn(deps, taskId, reservation, step, () => ({
        prompt,
        shownAs: message ?? 'Break the locked plan into todos.',
      })),
    );
  } catch (error) {
    reservation.release();
    throw error;
  }
  return { task, session: await deps.sessions.get(session.id) };
}

/**
 * After every turn of the plan session once the plan is locked: the answer becomes the todo list
 * (PLAN_LOCKED → TODO_READY), or replaces it when a chat turn in TODO_READY answers with a list.
 */
export async function todosTurnEnded(
  deps: TaskDeps,
  session: SessionRecord,
  outcome: RunnerOutcome,
): Promise<void> {
  const task = await taskOfSucceededTurn(deps, session, outcome);
  if (!task) return;
  if (task.state === 'PLAN_LOCKED') {
    await saveTodos(deps, task, parseTodoList(outcome.output));
    await deps.store.move(task.id, 'todos_ready');
    return;
  }
  if (task.state === 'TODO_READY') {
    // A chat turn about the list: when it answers with a list, that list replaces the old one.
    try {
      await saveTodos(deps, task, parseTodoList(outcome.output));
    } catch {
      // a plain answer (a question, an explanation) leaves the list as it is
    }
  }
}

async function saveTodos(deps: TaskDeps, task: Task, items: ReturnType<typeof parseTodoList>): Promise<void> {
  await deps.store.replaceTodos(task.id, items);
  await writeTodoFile(deps, task.id);
}

/** todo.json as the todo rows are now (after a turn, or a hand edit). */
export async function writeTodoFile(deps: TaskDeps, taskId: string): Promise<void> {
  const items = (await deps.store.todos(taskId)).map((todo) => ({
    title: todo.title,
    description: todo.description,
    expected_output: todo.expected_output,
  }));
  const taskDir = deps.paths.taskDir(taskId);
  writeTaskFile(taskDir, join(taskDir, 'todo.json'), `${JSON.stringify(items, null, 2)}\n`);
}
