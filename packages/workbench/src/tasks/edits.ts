import { WorkbenchError } from '../errors.ts';
import type { UserActionEvent } from '../sessions/index.ts';
import type { TaskDeps } from './deps.ts';
import { diffLines } from './line-diff.ts';
import { planSession } from './plan-session.ts';
import { noteTaskError } from './stage-errors.ts';
import { savePlan } from './stages/plan/plan-stage.ts';
import { reviewSession } from './stages/review/review-stage.ts';
import { writeTodoFile } from './stages/todos/todos-stage.ts';
import type { TaskState } from './states.ts';
import { readPlan } from './task-files.ts';
import type { Task, Todo } from './types.ts';

// The user's hand edits of the stages' artifacts: the plan (each save a new version), the todo list while
// it waits for coding, the commit message and the MR's title and description in review. Each edit waits
// for the stage's session to be idle (an AI turn would overwrite it) and is logged in that session as a
// `user_action` event.

/** 409 INVALID_STATE saying which state the edit needs. */
function assertEditable(deps: TaskDeps, task: Task, needed: TaskState, what: string): void {
  if (task.state === needed) return;
  throw new WorkbenchError('INVALID_STATE', `${what} needs the task in ${needed}; it is ${task.state}.`, {
    state: task.state,
    action: what,
    needed,
    allowed: deps.flow.allowedActions(task.state),
  });
}

/** Logs the edit, answering once it is in the log (a failed append fails the request, as it did). */
async function logAction(deps: TaskDeps, sessionId: string, event: Omit<UserActionEvent, 'type'>) {
  deps.runner.record(sessionId, { type: 'user_action', ...event });
  await deps.runner.recorded(sessionId);
}

/** PUT plan: saves plan.md as written by the user, a new version (PLANNING only). */
export async function editPlan(deps: TaskDeps, taskId: string, content: string) {
  deps.busy.assertOpen(taskId);
  const task = await deps.store.get(taskId);
  assertEditable(deps, task, 'PLANNING', 'Editing the plan');
  const session = await planSession(deps, task, true);
  deps.runner.assertIdle(session.id);
  const text = content.endsWith('\n') ? content : `${content}\n`;
  const version = await savePlan(deps, taskId, text, 'user', session.id);
  await logAction(deps, session.id, {
    action: 'edit_plan',
    detail: `The user edited plan.md (version ${version.version}).`,
    data: { version: version.version, characters: text.length },
  });
  await noteTaskError(deps, taskId, null);
  return { task: await deps.store.get(taskId), version };
}

/** Every version of plan.md, oldest first (a plan.md from before versions were kept is version 1). */
export async function planVersions(deps: TaskDeps, taskId: string) {
  await deps.store.get(taskId);
  let versions = await deps.store.planVersions(taskId);
  if (versions.length === 0) {
    const existing = await readPlan(deps.paths.taskDir(taskId));
    if (existing !== null) {
      await deps.store.addPlanVersion(taskId, existing, 'ai', null);
      versions = await deps.store.planVersions(taskId);
    }
  }
  return { task_id: taskId, versions: versions.map((version) => ({ ...version })) };
}

/** The unified diff between two versions (default: the one before `to`, and the latest). */
export async function planDiff(deps: TaskDeps, taskId: string, from?: number, to?: number) {
  const { versions } = await planVersions(deps, taskId);
  const latest = versions.at(-1)?.version;
  if (latest === undefined) {
    throw new WorkbenchError('PLAN_MISSING', 'There is no plan yet: it has no versions to compare.', {
      task_id: taskId,
    });
  }
  const target = to ?? latest;
  const base = from ?? Math.max(1, target - 1);
  const a = await deps.store.planVersion(taskId, base);
  const b = await deps.store.planVersion(taskId, target);
  return {
    task_id: taskId,
    from: base,
    to: target,
    ...diffLines(a.content, b.content, { from: `plan.md@${base}`, to: `plan.md@${target}` }),
  };
}

/** The todo list may change by hand only while it waits for coding and no turn is adjusting it. */
async function todoListEditable(deps: TaskDeps, taskId: string, what: string): Promise<Task> {
  deps.busy.assertOpen(taskId);
  const task = await deps.store.get(taskId);
  assertEditable(deps, task, 'TODO_READY', what);
  if (task.plan_session_id) deps.runner.assertIdle(task.plan_session_id);
  return task;
}

async function todoOf(deps: TaskDeps, taskId: string, todoId: string): Promise<Todo> {
  const todo = await deps.store.todo(todoId);
  if (todo.task_id !== taskId) {
    throw new WorkbenchError('TODO_NOT_FOUND', `Task '${taskId}' has no todo '${todoId}'.`, {
      task_id: taskId,
      todo_id: todoId,
    });
  }
  return todo;
}

async function todoListChanged(deps: TaskDeps, task: Task, event: Omit<UserActionEvent, 'type'>) {
  await writeTodoFile(deps, task.id);
  await logAction(deps, (await planSession(deps, task, true)).id, event);
  return await deps.store.todos(task.id);
}

export async function addTodo(
  deps: TaskDeps,
  taskId: string,
  input: { title: string; description: string; expected_output: string; position?: number | undefined },
) {
  const task = await todoListEditable(deps, taskId, 'Adding a todo');
  const todo = await deps.store.insertTodo(taskId, input, input.position);
  const todos = await todoListChanged(deps, task, {
    action: 'add_todo',
    detail: `The user added todo ${todo.position}: '${todo.title}'.`,
    data: { todo_id: todo.id, position: todo.position, title: todo.title },
  });
  return { todo, todos };
}

export async function editTodo(
  deps: TaskDeps,
  taskId: string,
  todoId: string,
  patch: {
    title?: string | undefined;
    description?: string | undefined;
    expected_output?: string | undefined;
  },
) {
  const task = await todoListEditable(deps, taskId, 'Editing a todo');
  const before = await todoOf(deps, taskId, todoId);
  const todo = await deps.store.updateTodo(todoId, patch);
  const fields = Object.keys(patch).filter((key) => patch[key as keyof typeof patch] !== undefined);
  const todos = await todoListChanged(deps, task, {
    action: 'edit_todo',
    detail: `The user edited todo ${todo.position} ('${before.title}'): ${fields.join(', ')}.`,
    data: { todo_id: todoId, fields },
  });
  return { todo, todos };
}

export async function removeTodo(deps: TaskDeps, taskId: string, todoId: string) {
  const task = await todoListEditable(deps, taskId, 'Removing a todo');
  const todo = await todoOf(deps, taskId, todoId);
  await deps.store.removeTodo(todoId);
  return await todoListChanged(deps, task, {
    action: 'remove_todo',
    detail: `The user removed todo ${todo.position}: '${todo.title}'.`,
    data: { todo_id: todoId, title: todo.title },
  });
}

export async function reorderTodos(deps: TaskDeps, taskId: string, ids: string[]) {
  const task = await todoListEditable(deps, taskId, 'Reordering the todos');
  const current = (await deps.store.todos(taskId)).map((todo) => todo.id);
  const same =
    ids.length === current.length &&
    new Set(ids).size === ids.length &&
    ids.every((id) => current.includes(id));
  if (!same) {
    throw new WorkbenchError(
      'INVALID_PARAMS',
      `todo_ids: must list every todo of the task exactly once (${current.length} todo(s): ${current.join(', ') || 'none'}).`,
      {
        field: 'todo_ids',
        issues: [{ path: ['todo_ids'], message: 'must list every todo of the task once' }],
        expected: current,
      },
    );
  }
  await deps.store.reorderTodos(taskId, ids);
  return await todoListChanged(deps, task, {
    action: 'reorder_todos',
    detail: 'The user reordered the todos.',
    data: { todo_ids: ids },
  });
}

/** PUT commit-message: the commit message and/or the MR's title and description, by hand (REVIEWING). */
export async function editCommitMessage(
  deps: TaskDeps,
  taskId: string,
  body: {
    commit_message?: string | undefined;
    mr_title?: string | null | undefined;
    mr_description?: string | null | undefined;
  },
): Promise<Task> {
  deps.busy.assertOpen(taskId);
  const task = await deps.store.get(taskId);
  assertEditable(deps, task, 'REVIEWING', 'Editing the commit message');
  const fields = Object.keys(body).filter((key) => body[key as keyof typeof body] !== undefined);
  if (fields.length === 0) {
    throw new WorkbenchError(
      'INVALID_PARAMS',
      'body: give at least one of commit_message, mr_title, mr_description.',
      { issues: [{ path: [], message: 'give at least one of commit_message, mr_title, mr_description' }] },
    );
  }
  const session = await reviewSession(deps, task, true);
  deps.runner.assertIdle(session.id);
  const updated = await deps.store.update(taskId, {
    ...(body.commit_message !== undefined ? { commit_message: body.commit_message.trim() } : {}),
    ...(body.mr_title !== undefined ? { mr_title: body.mr_title } : {}),
    ...(body.mr_description !== undefined ? { mr_description: body.mr_description } : {}),
    error: null,
  });
  await logAction(deps, session.id, {
    action: 'edit_commit_message',
    detail: `The user edited ${fields.join(', ')}.`,
    data: { fields },
  });
  return updated;
}
