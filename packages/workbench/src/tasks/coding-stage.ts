import { join } from 'node:path';
import { WorkbenchError } from '../errors.ts';
import { diff, restoreSnapshot, snapshot } from '../git/index.ts';
import { claim, type TaskDeps, taskRunner } from './deps.ts';
import { readIfExists } from './plan-stage.ts';
import { codingPrompt, taskInstructions } from './prompts.ts';
import type { Task, Todo } from './types.ts';

/** TODO_READY → CODING, with at least one todo. */
export function startCoding(deps: TaskDeps, taskId: string): Task {
  deps.store.check(taskId, 'start_coding');
  if (deps.store.todos(taskId).length === 0) {
    throw new WorkbenchError(
      'NO_TODOS',
      409,
      'The todo list is empty: generate it with POST /api/tasks/{id}/todo.',
    );
  }
  return deps.store.move(taskId, 'start_coding');
}

/**
 * Checks that `todo` may run now: the task is CODING, the todo is pending or failed, and every todo before
 * it is done or skipped (strict order). Returns the task.
 */
function assertRunnable(deps: TaskDeps, todo: Todo, action: 'execute_todo' | 'skip_todo'): Task {
  const task = deps.store.check(todo.task_id, action);
  if (todo.status !== 'pending' && todo.status !== 'failed') {
    throw new WorkbenchError(
      'INVALID_TODO_STATE',
      409,
      `Todo ${todo.position} is ${todo.status}: only a pending or failed todo can run or be skipped.`,
      {
        todo_id: todo.id,
        status: todo.status,
      },
    );
  }
  const blocking = deps.store
    .todos(todo.task_id)
    .find((each) => each.position < todo.position && each.status !== 'done' && each.status !== 'skipped');
  if (blocking) {
    throw new WorkbenchError(
      'TODO_OUT_OF_ORDER',
      409,
      `Todo ${blocking.position} ('${blocking.title}') is ${blocking.status}: todos run strictly in order.`,
      { todo_id: todo.id, blocking_todo_id: blocking.id, blocking_status: blocking.status },
    );
  }
  return task;
}

/** Marks the todo running at once (so a second request is refused) and runs it in the background. */
export function executeTodo(deps: TaskDeps, todoId: string) {
  const todo = deps.store.todo(todoId);
  const task = assertRunnable(deps, todo, 'execute_todo');
  const release = claim(deps, task.id, `todo ${todo.position}`);
  let session: ReturnType<typeof todoSession>;
  try {
    session = todoSession(deps, task);
  } catch (error) {
    release();
    throw error;
  }
  const running = deps.store.updateTodo(todoId, { status: 'running', session_id: session.id, error: null });
  deps.background.run(async () => {
    try {
      await runTodo(deps, task, running, session.id);
    } finally {
      release();
    }
  });
  return { todo: running, session };
}

/**
 * Runs the remaining todos in order (a failed one is retried), stopping at the first failure. Answers at
 * once; the todos' statuses and sessions show the progress.
 */
export function runAll(deps: TaskDeps, taskId: string) {
  const task = deps.store.check(taskId, 'run_all');
  const first = deps.store.todos(taskId).find((todo) => todo.status !== 'done' && todo.status !== 'skipped');
  if (!first) throw new WorkbenchError('NO_TODOS', 409, 'No todo is left to run.');
  assertRunnable(deps, first, 'execute_todo');
  const release = claim(deps, taskId, 'run-all');
  deps.background.run(async () => {
    try {
      for (;;) {
        const next = deps.store
          .todos(taskId)
          .find((todo) => todo.status !== 'done' && todo.status !== 'skipped');
        if (!next || deps.store.get(taskId).state !== 'CODING') return;
        const session = todoSession(deps, deps.store.get(taskId));
        const running = deps.store.updateTodo(next.id, {
          status: 'running',
          session_id: session.id,
          error: null,
        });
        await runTodo(deps, deps.store.get(taskId), running, session.id);
        if (deps.store.todo(next.id).status !== 'done') return;
      }
    } finally {
      release();
    }
  });
  return { task, todos: deps.store.todos(taskId) };
}

/** Skips a pending or failed todo (in order). A failed one's partial changes are undone first. */
export async function skipTodo(deps: TaskDeps, todoId: string): Promise<Todo> {
  const todo = deps.store.todo(todoId);
  const task = assertRunnable(deps, todo, 'skip_todo');
  const release = claim(deps, task.id, `skip todo ${todo.position}`);
  try {
    if (todo.status === 'failed' && todo.before) await restore(task, todo.before);
    const skipped = deps.store.updateTodo(todoId, { status: 'skipped' });
    finishIfLast(deps, task.id);
    return skipped;
  } finally {
    release();
  }
}

async function runTodo(deps: TaskDeps, task: Task, todo: Todo, sessionId: string): Promise<void> {
  try {
    let before = todo.before;
    if (before) {
      // A retry starts from where the todo first started: its partial changes are put back.
      await restore(task, before);
    } else {
      before = {};
      for (const workspace of task.workspaces)
        before[workspace.repository] = await snapshot(workspace.dir, `todo-${todo.id}-before`);
      deps.store.updateTodo(todo.id, { before });
    }
    const total = deps.store.todos(task.id).length;
    const outcome = await deps.runner.turn(sessionId, {
      prompt: codingPrompt(todo, total, task.workspaces),
      shownAs: `Todo ${todo.position}: ${todo.title}`,
    });
    const after: Record<string, string> = {};
    for (const workspace of task.workspaces)
      after[workspace.repository] = await snapshot(workspace.dir, `todo-${todo.id}-after`);
    if (outcome.status === 'succeeded') {
      deps.store.updateTodo(todo.id, { status: 'done', after, error: null });
      finishIfLast(deps, task.id);
    } else {
      deps.store.updateTodo(todo.id, {
        status: 'failed',
        after,
        error: outcome.error?.message ?? outcome.status,
      });
    }
  } catch (error) {
    deps.store.updateTodo(todo.id, { status: 'failed', error: (error as Error).message });
  }
}

/** CODING → REVIEWING when every todo is done or skipped. */
function finishIfLast(deps: TaskDeps, taskId: string): void {
  const todos = deps.store.todos(taskId);
  if (
    todos.every((todo) => todo.status === 'done' || todo.status === 'skipped') &&
    deps.store.get(taskId).state === 'CODING'
  ) {
    deps.store.move(taskId, 'finish_coding');
  }
}

async function restore(task: Task, shas: Record<string, string>): Promise<void> {
  for (const workspace of task.workspaces) {
    const sha = shas[workspace.repository];
    if (sha) await restoreSnapshot(workspace.dir, sha);
  }
}

function todoSession(deps: TaskDeps, task: Task) {
  const config = taskRunner(deps, task, deps.projects.get(task.project_id));
  deps.settings.model(config);
  const taskDir = deps.paths.taskDir(task.id);
  return deps.runner.create('coding', task.id, config.id, {
    workdir: taskDir,
    instructions: taskInstructions(task, readIfExists(join(taskDir, 'constitution.md'))),
    skillDirs: [join(taskDir, '.skills')],
  });
}

/** The todo's changes per repository: before..after, or before..working tree while it runs or failed. */
export async function todoDiff(deps: TaskDeps, todoId: string) {
  const todo = deps.store.todo(todoId);
  const task = deps.store.get(todo.task_id);
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
