import { fromJson, nowIso } from '../database.ts';
import { recordNotFound } from '../not-found.ts';
import type { ListedTask, NewTask, Task, TaskImageInfo, TaskPatch, TaskState } from '../records/task.ts';
import { interrupted, interruptedTaskPatch } from '../rows.ts';
import type { Database, Row } from './database.ts';
import {
  assignments,
  imageInfoOf,
  noSessions,
  type StageSessions,
  toListedTask,
  toTask,
} from './task-rows.ts';

// The tasks and task_sessions tables.

/** The stage sessions of one task, of a project's tasks, or of every task, by task. */
function stageSessions(
  db: Database,
  of: { task: string } | { project?: string | undefined },
): Map<string, StageSessions> {
  const select = 'SELECT s.task_id, s.stage, s.session_id FROM task_sessions s';
  const rows = (
    'task' in of
      ? db.prepare(`${select} WHERE s.task_id = ?`).all(of.task)
      : of.project !== undefined
        ? db.prepare(`${select} JOIN tasks t ON t.id = s.task_id WHERE t.project_id = ?`).all(of.project)
        : db.prepare(select).all()
  ) as { task_id: string; stage: string; session_id: string }[];
  const byTask = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const sessions = byTask.get(row.task_id) ?? new Map<string, string>();
    sessions.set(row.stage, row.session_id);
    byTask.set(row.task_id, sessions);
  }
  return byTask;
}

export function createTask(db: Database, input: NewTask): Task {
  const now = nowIso();
  db.prepare(
    `INSERT INTO tasks (id, project_id, description, prd_links, images, image_info, runner, branch, state, init, workspaces, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'CREATED', ?, '[]', ?, ?)`,
  ).run(
    input.id,
    input.project_id,
    input.description,
    JSON.stringify(input.prd_links),
    JSON.stringify(input.images),
    JSON.stringify(imageInfoOf(input.images)),
    input.runner,
    input.branch,
    JSON.stringify({ status: 'idle', steps: [] }),
    now,
    now,
  );
  return getTask(db, input.id);
}

/** The tasks table's columns, per connection (read once: migrations are done by then). */
const taskColumns = new WeakMap<Database, string[]>();

/** The tasks table's columns but `skipped`, as a select list. */
function columnsBut(db: Database, skipped: string): string {
  let columns = taskColumns.get(db);
  if (!columns) {
    columns = (db.prepare('PRAGMA table_info(tasks)').all() as { name: string }[]).map(
      (column) => column.name,
    );
    taskColumns.set(db, columns);
  }
  return columns
    .filter((name) => name !== skipped)
    .map((name) => `"${name}"`)
    .join(', ');
}

/**
 * The tasks, oldest first. Images come as what they are and their sizes (`image_info`, written with them):
 * listing twenty tasks with a few megabytes of images each must not read them all (it took the service to
 * 1.4 GB).
 */
export function listTasks(db: Database, projectId?: string): ListedTask[] {
  const select = `SELECT ${columnsBut(db, 'images')} FROM tasks`;
  const rows = projectId
    ? db.prepare(`${select} WHERE project_id = ? ORDER BY created_at, id`).all(projectId)
    : db.prepare(`${select} ORDER BY created_at, id`).all();
  const sessions = stageSessions(db, { project: projectId });
  return (rows as Row[]).map((row) => ({
    ...toListedTask(row, sessions.get(row.id as string) ?? noSessions),
    images: fromJson<TaskImageInfo[]>(row.image_info, []),
  }));
}

export function getTask(db: Database, id: string): Task {
  const row = db.prepare('SELECT * FROM tasks WHERE id = ?').get(id) as Row | undefined;
  if (!row) throw recordNotFound.task(id);
  return toTask(row, stageSessions(db, { task: id }).get(id) ?? noSessions);
}

export function taskExists(db: Database, id: string): boolean {
  return db.prepare('SELECT 1 FROM tasks WHERE id = ?').get(id) !== undefined;
}

export function updateTask(db: Database, id: string, patch: TaskPatch): Task {
  const { sql, values } = assignments(patch);
  db.prepare(`UPDATE tasks SET ${sql} WHERE id = ?`).run(...values, id);
  return getTask(db, id);
}

/** Read, decide and write with nothing between (node:sqlite is synchronous: one step of the event loop). */
export function moveTask(
  db: Database,
  id: string,
  next: (task: Task) => TaskState,
): { task: Task; moved: boolean } {
  const task = getTask(db, id);
  const to = next(task);
  if (to === task.state) return { task, moved: false };
  const cancelledFrom = to === 'CANCELLED' ? task.state : null;
  db.prepare('UPDATE tasks SET state = ?, cancelled_from = ?, updated_at = ? WHERE id = ?').run(
    to,
    cancelledFrom,
    nowIso(),
    id,
  );
  return { task: getTask(db, id), moved: true };
}

export function removeTask(db: Database, id: string): void {
  // The foreign keys (ON DELETE CASCADE) take its todos, stage sessions and plan versions.
  db.prepare('DELETE FROM tasks WHERE id = ?').run(id);
}

export function sessionOf(db: Database, taskId: string, stage: string): string | null {
  const row = db
    .prepare('SELECT session_id FROM task_sessions WHERE task_id = ? AND stage = ?')
    .get(taskId, stage) as { session_id: string } | undefined;
  return row?.session_id ?? null;
}

export function setSession(db: Database, taskId: string, stage: string, sessionId: string): Task {
  db.prepare(
    `INSERT INTO task_sessions (task_id, stage, session_id, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (task_id, stage) DO UPDATE SET session_id = excluded.session_id`,
  ).run(taskId, stage, sessionId, nowIso());
  return updateTask(db, taskId, {});
}

/**
 * Crash repair: todos, init steps and baselines left running failed (a retry restores the before-snapshot;
 * the next todo takes the baseline again). Answers the tasks it changed.
 */
export function failInterruptedTasks(db: Database): Task[] {
  const now = nowIso();
  db.prepare(`UPDATE todos SET status = 'failed', error = ?, updated_at = ? WHERE status = 'running'`).run(
    interrupted.todo,
    now,
  );
  const suspects = db
    .prepare(`SELECT * FROM tasks WHERE init LIKE '%"running"%' OR baseline LIKE '%"running"%'`)
    .all() as Row[];
  const changed: Task[] = [];
  for (const task of suspects.map((row) => toTask(row, noSessions))) {
    const fields = interruptedTaskPatch(task, now);
    if (fields) changed.push(updateTask(db, task.id, fields));
  }
  return changed;
}
