import { newId } from '@keel/runtime/store';
import type { NewTodo, PlanVersion, Todo, TodoPatch } from '@keel/workbench';
import { recordNotFound, taskJsonColumns, todoFromRow } from '@keel/workbench';
import type { Sql, WorkbenchDatabase } from './database.ts';
import { hasNul, jsonParam, now, setList } from './database.ts';
import { lockTask } from './task-queries.ts';

// A task's todos and plan versions. Every change of positions or version numbers holds the task row's lock
// (lockTask), so concurrent writers of one task's list take turns and positions stay 1, 2, … without gaps.

const maxVersion = 2 ** 31 - 1;

export async function listTodos(db: Sql, taskId: string): Promise<Todo[]> {
  const rows = await db.rows(`SELECT * FROM ${db.t.todos} WHERE task_id = $1 ORDER BY position, id`, [
    taskId,
  ]);
  return rows.map(todoFromRow);
}

export async function getTodo(db: Sql, id: string): Promise<Todo> {
  const row = await db.row(`SELECT * FROM ${db.t.todos} WHERE id = $1`, [id]);
  if (!row) throw recordNotFound.todo(id);
  return todoFromRow(row);
}

const insertColumns =
  'id, task_id, position, title, description, expected_output, status, origin, created_at, updated_at';

function insertTodoRow(sql: Sql, taskId: string, position: number, item: NewTodo, origin: unknown) {
  return sql.row<{ id: string }>(
    `INSERT INTO ${sql.t.todos} (${insertColumns})
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, ${now}, ${now}) RETURNING id`,
    [newId('todo'), taskId, position, item.title, item.description, item.expected_output, origin],
  );
}

export async function replaceTodos(db: WorkbenchDatabase, taskId: string, items: NewTodo[]): Promise<Todo[]> {
  return db.transaction(async (sql) => {
    await lockTask(sql, taskId);
    await sql.rows(`DELETE FROM ${sql.t.todos} WHERE task_id = $1`, [taskId]);
    // As SQLite writes them: a replaced list's todos carry no origin (read as the plan's).
    for (const [index, item] of items.entries()) await insertTodoRow(sql, taskId, index + 1, item, null);
    return listTodos(sql, taskId);
  });
}

export async function updateTodo(db: Sql, id: string, patch: TodoPatch): Promise<Todo> {
  if (hasNul(id)) throw recordNotFound.todo(id);
  const { sql, values } = setList(patch, taskJsonColumns);
  const row = await db.row(`UPDATE ${db.t.todos} SET ${sql} WHERE id = $${values.length + 1} RETURNING *`, [
    ...values,
    id,
  ]);
  if (!row) throw recordNotFound.todo(id);
  return todoFromRow(row);
}

export async function insertTodo(
  db: WorkbenchDatabase,
  taskId: string,
  item: NewTodo,
  position?: number,
): Promise<Todo> {
  return db.transaction(async (sql) => {
    await lockTask(sql, taskId);
    const counted = await sql.row<{ count: string }>(
      `SELECT count(*) AS count FROM ${sql.t.todos} WHERE task_id = $1`,
      [taskId],
    );
    const count = Number(counted?.count ?? 0);
    const at = Math.min(position ?? count + 1, count + 1);
    await sql.rows(
      `UPDATE ${sql.t.todos} SET position = position + 1 WHERE task_id = $1 AND position >= $2`,
      [taskId, at],
    );
    const row = await insertTodoRow(sql, taskId, at, item, jsonParam(item.origin ?? { kind: 'plan' }));
    return getTodo(sql, (row as { id: string }).id);
  });
}

export async function removeTodo(db: WorkbenchDatabase, id: string): Promise<void> {
  const todo = await getTodo(db, id);
  await db.transaction(async (sql) => {
    await lockTask(sql, todo.task_id);
    // Read again under the lock: another process may have moved or removed it since.
    const row = await sql.row<{ position: number }>(
      `DELETE FROM ${sql.t.todos} WHERE id = $1 RETURNING position`,
      [id],
    );
    if (!row) throw recordNotFound.todo(id);
    await sql.rows(`UPDATE ${sql.t.todos} SET position = position - 1 WHERE task_id = $1 AND position > $2`, [
      todo.task_id,
      row.position,
    ]);
  });
}

export async function reorderTodos(db: WorkbenchDatabase, taskId: string, ids: string[]): Promise<Todo[]> {
  return db.transaction(async (sql) => {
    await lockTask(sql, taskId);
    // One statement: each id takes its place in `ids` (ids of other tasks are left alone, as on SQLite).
    await sql.rows(
      `UPDATE ${sql.t.todos} AS todo SET position = wanted.position, updated_at = ${now}
       FROM unnest($2::text[]) WITH ORDINALITY AS wanted (id, position)
       WHERE todo.id = wanted.id AND todo.task_id = $1`,
      [taskId, ids],
    );
    return listTodos(sql, taskId);
  });
}

export async function planVersions(db: Sql, taskId: string): Promise<PlanVersion[]> {
  return db.rows<PlanVersion>(`SELECT * FROM ${db.t.planVersions} WHERE task_id = $1 ORDER BY version`, [
    taskId,
  ]);
}

export async function planVersion(db: Sql, taskId: string, version: number): Promise<PlanVersion> {
  // Versions count 1, 2, … in an integer column: a number past it (or not whole) names none.
  const row =
    Number.isInteger(version) && version >= 1 && version <= maxVersion
      ? await db.row<PlanVersion>(`SELECT * FROM ${db.t.planVersions} WHERE task_id = $1 AND version = $2`, [
          taskId,
          version,
        ])
      : undefined;
  if (!row) throw recordNotFound.planVersion(taskId, version);
  return row;
}

/** The next number under the task row's lock: two writers at once get 1 and 2, never 1 twice. */
export async function addPlanVersion(
  db: WorkbenchDatabase,
  taskId: string,
  content: string,
  source: PlanVersion['source'],
  sessionId: string | null,
): Promise<PlanVersion> {
  return db.transaction(async (sql) => {
    await lockTask(sql, taskId);
    const row = await sql.row<PlanVersion>(
      `INSERT INTO ${sql.t.planVersions} (task_id, version, content, source, session_id, created_at)
       SELECT $1, COALESCE(MAX(version), 0) + 1, $2, $3, $4, ${now} FROM ${sql.t.planVersions} WHERE task_id = $1
       RETURNING *`,
      [taskId, content, source, sessionId],
    );
    return row as PlanVersion;
  });
}
