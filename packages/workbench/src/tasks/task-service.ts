import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Usage } from '@keel/protocol/workbench';
import { WorkbenchError } from '../errors.ts';
import {
  addUsage,
  type SessionKind,
  type SessionRecord,
  type SessionStatus,
  stopReasons,
} from '../sessions/index.ts';
import { runnerConfigById } from '../settings/index.ts';
import { defaultBranch } from './branch-name.ts';
import type { TaskDeps } from './deps.ts';
import { discardDirectory, emptyTrash } from './discard-directory.ts';
import { initAutomatically } from './stages/init/init-stage.ts';
import { readPlan } from './task-files.ts';
import { imageInfoOf, type ListedTask } from './tasks.ts';
import type { Task, TaskImage, TaskImageInfo, Todo } from './types.ts';

/** A task as the API shows it: images without their data, plus plan.md, the todos and the allowed actions. */
export interface TaskView extends Omit<Task, 'images'> {
  images: TaskImageInfo[];
  work_dir: string;
  plan: string | null;
  /** Each with its session's tokens and cost. */
  todos: (Todo & { usage: Usage | null })[];
  /** The task's sessions (init, plan, each todo's, review), oldest first; `busy` while held for work. */
  sessions: TaskSessionView[];
  /** The tokens and cost of all of them. */
  usage: Usage | null;
  allowed_actions: string[];
}

/** A session of the task in short; the whole row is `GET /api/sessions/{id}/status`. */
export interface TaskSessionView {
  id: string;
  kind: SessionKind;
  status: SessionStatus;
  busy: boolean;
  error: SessionRecord['error'];
  ended_at: string | null;
  usage: Usage | null;
}

/** States where the task's input (description, links, images, runner) may still change. */
const editable = new Set(['CREATED', 'INITIALIZING', 'PLANNING']);

export async function viewTask(deps: TaskDeps, task: Task | ListedTask): Promise<TaskView> {
  return {
    ...task,
    // A listed task's images are their info already.
    images: isListed(task) ? task.images : imageInfoOf(task.images),
    work_dir: deps.paths.taskDir(task.id),
    plan: await shownPlan(deps, task.id),
    ...(await taskWork(deps, task.id)),
    allowed_actions: deps.flow.allowedActions(task.state),
  };
}

/** The task's todos and sessions, each with its tokens and cost, and their total. */
async function taskWork(deps: TaskDeps, taskId: string) {
  const own = await deps.sessions.byOwner(taskId);
  const usageOf = async (sessionId: string | null) =>
    sessionId
      ? (own.find((session) => session.id === sessionId) ?? (await deps.sessions.find(sessionId)))?.usage
      : null;
  const todos = await Promise.all(
    (await deps.store.todos(taskId)).map(async (todo) => ({
      ...todo,
      usage: (await usageOf(todo.session_id)) ?? null,
    })),
  );
  // Each session counted once: a todo's session is one of the task's own.
  const others = todos.filter((todo) => !own.some((session) => session.id === todo.session_id));
  return {
    todos,
    sessions: own.map((session) => ({
      id: session.id,
      kind: session.kind,
      status: session.status,
      busy: session.busy,
      error: session.error,
      ended_at: session.ended_at,
      usage: session.usage,
    })),
    usage: addUsage(...own.map((session) => session.usage), ...others.map((todo) => todo.usage)),
  };
}

function isListed(task: Task | ListedTask): task is ListedTask {
  return task.images.every((image) => !('data' in image));
}

/** plan.md for the view; one the model replaced by a link shows as no plan (locking it says why). */
async function shownPlan(deps: TaskDeps, taskId: string): Promise<string | null> {
  try {
    return await readPlan(deps.paths.taskDir(taskId));
  } catch (error) {
    if (WorkbenchError.is(error) && error.code === 'PERMISSION_DENIED') return null;
    throw error;
  }
}

export async function createTask(
  deps: TaskDeps,
  input: {
    project_id: string;
    description: string;
    prd_links: string[];
    images: TaskImage[];
    runner?: string | null | undefined;
    branch?: string | undefined;
  },
): Promise<Task> {
  const project = await deps.projects.get(input.project_id);
  await deps.settings.assertRunner(input.runner, 'runner');
  const id = deps.store.newId();
  await deps.store.create({
    id,
    project_id: project.id,
    description: input.description,
    prd_links: input.prd_links,
    images: input.images,
    runner: input.runner ?? null,
    branch: input.branch ?? defaultBranch(input.description, id),
  });
  // Its workspaces are its project's repositories: trusted as they are (the decision reads a copy).
  await deps.trust.refresh();
  // Initialization starts by itself (now, or once the project is READY); POST .../init retries it.
  await initAutomatically(deps, id);
  return await deps.store.get(id);
}

export async function updateTask(
  deps: TaskDeps,
  id: string,
  patch: {
    description?: string | undefined;
    prd_links?: string[] | undefined;
    images?: TaskImage[] | undefined;
    runner?: string | null | undefined;
    branch?: string | undefined;
    state?: unknown;
  },
): Promise<Task> {
  // Read before the checks: from them to the write nothing may wait.
  const runners = await deps.settings.runnerConfigs();
  const task = await deps.store.get(id);
  if (patch.state !== undefined) {
    throw new WorkbenchError(
      'INVALID_STATE',
      "A task's state is never written directly: it changes through the flow's actions (see allowed).",
      { state: task.state, allowed: deps.flow.allowedActions(task.state) },
    );
  }
  if (!editable.has(task.state)) {
    throw new WorkbenchError('INVALID_STATE', `A task in state ${task.state} can no longer be edited.`, {
      state: task.state,
      allowed: deps.flow.allowedActions(task.state),
    });
  }
  if (patch.branch !== undefined && patch.branch !== task.branch && task.state !== 'CREATED') {
    throw new WorkbenchError('INVALID_STATE', 'The branch can change only before initialization.', {
      state: task.state,
      allowed: deps.flow.allowedActions(task.state),
    });
  }
  if (patch.runner) runnerConfigById(runners, patch.runner, 'runner');
  const { state: _state, ...fields } = patch;
  return await deps.store.update(id, fields);
}

/**
 * Deletes a task: first its running work is stopped and awaited (a todo's or plan's turn, run-all, the
 * init steps, which stop after the step they are in, a push), refusing anything new meanwhile; then its
 * row and its work directory go. Nothing writes into `tasks/{id}/` afterwards. The sessions' rows and logs
 * stay.
 */
export async function deleteTask(deps: TaskDeps, id: string): Promise<void> {
  await deps.store.get(id);
  await stopTaskWork(deps, id);
  await deps.store.remove(id);
  // Gone from tasks/ at once; its files are removed by a child process, and the service keeps answering.
  const { removed } = await discardDirectory(deps.paths.home, deps.paths.taskDir(id));
  deps.background.run(() => removed);
  deps.busy.forget(id);
}

/**
 * Crash repair: a delete removes the row, then the directory, so a service stopped in between (or a
 * delete of a huge workspace cut short) leaves a directory no task owns, or files in the trash. Each is
 * removed at start-up, in the background, one at a time; only names shaped like task ids are touched.
 */
export async function removeOrphanTaskDirs(deps: TaskDeps): Promise<string[]> {
  await emptyTrash(deps.paths.home);
  const root = dirname(deps.paths.taskDir('task'));
  const names = await readdir(root).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    if (!/^task_[a-z0-9]+$/.test(name) || (await deps.store.exists(name))) continue;
    await (await discardDirectory(deps.paths.home, join(root, name))).removed;
    removed.push(name);
  }
  return removed;
}

/** Deletes every task of a project as `deleteTask` does (before the project itself is deleted). */
export async function deleteProjectTasks(deps: TaskDeps, projectId: string): Promise<void> {
  // Again until none is left: a task created while the others stopped is deleted too.
  for (
    let tasks = await deps.store.list(projectId);
    tasks.length > 0;
    tasks = await deps.store.list(projectId)
  ) {
    await Promise.all(tasks.map((task) => deleteTask(deps, task.id)));
  }
}

/** Any state but DONE → CANCELLED, stopping the task's running sessions. Its files stay. */
export async function cancelTask(deps: TaskDeps, id: string): Promise<Task> {
  const task = await deps.store.move(id, 'cancel');
  for (const session of await deps.sessions.byOwner(id)) {
    deps.runner.dropQueue(session.id);
    deps.runner.cancel(session.id, stopReasons.task);
  }
  return task;
}

/** How long a re-open waits for the task's stopped work to end before it answers 409. */
const reopenWaitMs = 15_000;

/**
 * CANCELLED → the state it was cancelled from (a todo that was running is failed: execute it again). Work
 * still stopping (a command ends at its next step) is waited for, so a re-open right after a cancel works.
 */
export async function reopenTask(deps: TaskDeps, id: string): Promise<Task> {
  if (!(await deps.busy.settled(id, reopenWaitMs))) {
    const running = deps.busy.get(id);
    throw new WorkbenchError(
      'TASK_BUSY',
      `The task is still stopping (${running}) after ${reopenWaitMs / 1000} s: it can be re-opened as soon as that ends. ` +
        `Its channel task:${id} tells the change; or try again in a few seconds.`,
      { task_id: id, running },
    );
  }
  return await deps.store.move(id, 'reopen');
}

/** Refuses new work on the task, stops its sessions' work and its other work, and waits for both to end. */
async function stopTaskWork(deps: TaskDeps, taskId: string): Promise<void> {
  const closed = deps.busy.close(taskId);
  await deps.runner.retire((await deps.sessions.byOwner(taskId)).map((session) => session.id));
  await closed;
  await deps.previews?.stopTask(taskId);
}
