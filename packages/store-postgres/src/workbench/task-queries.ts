import type { ListedTask, NewTask, Task, TaskImageInfo, TaskPatch, TaskState } from '@keel/workbench';
import {
  imageInfoOf,
  interrupted,
  interruptedTaskPatch,
  listedTaskFromRow,
  noSessions,
  recordNotFound,
  type StageSessions,
  taskFromRow,
  taskJsonColumns,
  withImageInfo,
} from '@keel/workbench';
import type { Row, Sql, WorkbenchDatabase } from './database.ts';
import { hasNul, jsonParam, now, setList } from './database.ts';
import { unknownProject } from './project-queries.ts';
import { listedTaskColumns } from './task-rows.ts';

// The tasks and their stage sessions.

/**
 * Locks the task's row until the transaction ends (TASK_NOT_FOUND when there is none): every change of
 * several rows of one task (its state, todo positions, plan version numbers, stage sessions) takes it
 * first, so two processes changing one task take turns and each sees the other's result.
 */
export async function lockTask(sql: Sql, id: string, read: 'id' | 'row' = 'id'): Promise<Row> {
  // Only the id unless the caller reads the task: a row may carry megabytes of images.
  const row = await sql.row(
    `SELECT ${read === 'row' ? '*' : 'id'} FROM ${sql.t.tasks} WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!row) throw recordNotFound.task(id);
  return row;
}

/** The stage sessions of one task, of a project's tasks, or of every task, by task. */
async function stageSessions(
  db: Sql,
  of: { task: string } | { project?: string | undefined },
): Promise<Map<string, StageSessions>> {
  const select = `SELECT s.task_id, s.stage, s.session_id FROM ${db.t.taskSessions} s`;
  const rows = await db.rows<{ task_id: string; stage: string; session_id: string }>(
    ...(('task' in of
      ? [`${select} WHERE s.task_id = $1`, [of.task]]
      : of.project !== undefined
        ? [`${select} JOIN ${db.t.tasks} t ON t.id = s.task_id WHERE t.project_id = $1`, [of.project]]
        : [select, []]) as [string, unknown[]]),
  );
  const byTask = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const sessions = byTask.get(row.task_id) ?? new Map<string, string>();
    sessions.set(row.stage, row.session_id);
    byTask.set(row.task_id, sessions);
  }
  return byTask;
}

async function withSessions(db: Sql, row: Row): Promise<Task> {
  const id = row.id as string;
  return taskFromRow(row, (await stageSessions(db, { task: id })).get(id) ?? noSessions);
}

export async function createTask(db: Sql, input: NewTask): Promise<Task> {
  const row = await db.row(
    `INSERT INTO ${db.t.tasks} (id, project_id, description, prd_links, images, image_info, runner, branch,
       state, init, workspaces, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'CREATED', $9, '[]', ${now}, ${now}) RETURNING *`,
    [
      input.id,
      input.project_id,
      input.description,
      jsonParam(input.prd_links),
      jsonParam(input.images),
      jsonParam(imageInfoOf(input.images)),
      input.runner,
      input.branch,
      jsonParam({ status: 'idle', steps: [] }),
    ],
    unknownProject(input.project_id),
  );
  return taskFromRow(row as Row, noSessions);
}

/** Oldest first, the images as their sizes (image_info): a list never reads the images themselves. */
export async function listTasks(db: Sql, projectId?: string): Promise<ListedTask[]> {
  const select = `SELECT ${listedTaskColumns} FROM ${db.t.tasks}`;
  const rows =
    projectId === undefined
      ? await db.rows(`${select} ORDER BY created_at, id`)
      : await db.rows(`${select} WHERE project_id = $1 ORDER BY created_at, id`, [projectId]);
  const sessions = await stageSessions(db, { project: projectId });
  return rows.map((row) => ({
    ...listedTaskFromRow(row, sessions.get(row.id as string) ?? noSessions),
    images: (row.image_info as TaskImageInfo[] | null) ?? [],
  }));
}

export async function getTask(db: Sql, id: string): Promise<Task> {
  const row = await db.row(`SELECT * FROM ${db.t.tasks} WHERE id = $1`, [id]);
  if (!row) throw recordNotFound.task(id);
  return withSessions(db, row);
}

export async function taskExists(db: Sql, id: string): Promise<boolean> {
  return (await db.row(`SELECT 1 FROM ${db.t.tasks} WHERE id = $1`, [id])) !== undefined;
}

export async function updateTask(db: Sql, id: string, patch: TaskPatch): Promise<Task> {
  if (hasNul(id)) throw recordNotFound.task(id);
  const { sql, values } = setList(withImageInfo(patch), taskJsonColumns);
  const row = await db.row(`UPDATE ${db.t.tasks} SET ${sql} WHERE id = $${values.length + 1} RETURNING *`, [
    ...values,
    id,
  ]);
  if (!row) throw recordNotFound.task(id);
  return withSessions(db, row);
}

/**
 * Read, decide and write under the task row's lock: a second mover (another process too) waits at the
 * SELECT … FOR UPDATE until this one commits, then decides on the state this one wrote. A throw from
 * `next` rolls back and leaves the task as it was.
 */
export async function moveTask(
  db: WorkbenchDatabase,
  id: string,
  next: (task: Task) => TaskState,
): Promise<{ task: Task; moved: boolean }> {
  return db.transaction(async (sql) => {
    const task = await withSessions(sql, await lockTask(sql, id, 'row'));
    const to = next(task);
    if (to === task.state) return { task, moved: false };
    const row = await sql.row(
      `UPDATE ${sql.t.tasks} SET state = $1, cancelled_from = $2, updated_at = ${now} WHERE id = $3 RETURNING *`,
      [to, to === 'CANCELLED' ? task.state : null, id],
    );
    return { task: await withSessions(sql, row as Row), moved: true };
  });
}

export async function removeTask(db: Sql, id: string): Promise<void> {
  // The foreign keys (ON DELETE CASCADE) take its todos, stage sessions and plan versions in the statement.
  await db.rows(`DELETE FROM ${db.t.tasks} WHERE id = $1`, [id]);
}

export async function sessionOf(db: Sql, taskId: string, stage: string): Promise<string | null> {
  const row = await db.row<{ session_id: string }>(
    `SELECT session_id FROM ${db.t.taskSessions} WHERE task_id = $1 AND stage = $2`,
    [taskId, stage],
  );
  return row?.session_id ?? null;
}

/** The stage's session and the task's updated_at in one transaction, under the task row's lock. */
export async function setSession(
  db: WorkbenchDatabase,
  taskId: string,
  stage: string,
  sessionId: string,
): Promise<Task> {
  return db.transaction(async (sql) => {
    await lockTask(sql, taskId);
    await sql.rows(
      `INSERT INTO ${sql.t.taskSessions} (task_id, stage, session_id, created_at) VALUES ($1, $2, $3, ${now})
       ON CONFLICT (task_id, stage) DO UPDATE SET session_id = EXCLUDED.session_id`,
      [taskId, stage, sessionId],
    );
    return updateTask(sql, taskId, {});
  });
}

/**
 * Crash repair, in one transaction: todos left running fail, and so do init steps and baselines left
 * running (a retry restores the before-snapshot; the next todo takes the baseline again). Answers the
 * tasks it changed.
 */
export async function failInterruptedTasks(db: WorkbenchDatabase): Promise<Task[]> {
  return db.transaction(async (sql) => {
    await sql.rows(
      `UPDATE ${sql.t.todos} SET status = 'failed', error = $1, updated_at = ${now} WHERE status = 'running'`,
      [interrupted.todo],
    );
    // json columns keep the text as written, so this finds what SQLite's LIKE over its TEXT finds.
    const suspects = await sql.rows(
      `SELECT * FROM ${sql.t.tasks} WHERE init::text LIKE '%"running"%' OR baseline::text LIKE '%"running"%'
       ORDER BY created_at, id FOR UPDATE`,
    );
    const ended = new Date().toISOString();
    const changed: Task[] = [];
    for (const task of suspects.map((row) => taskFromRow(row, noSessions))) {
      const fields = interruptedTaskPatch(task, ended);
      if (fields) changed.push(await updateTask(sql, task.id, fields));
    }
    return changed;
  });
}
