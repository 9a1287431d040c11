import { newId } from '@keel/runtime/store';
import { nowIso } from '../database.ts';
import { recordNotFound } from '../not-found.ts';
import type { NewTodo, PlanVersion, Todo, TodoPatch } from '../records/task.ts';
import { type Database, immediate, type Row } from './database.ts';
import { assignments, toTodo } from './task-rows.ts';

// A task's todos and plan versions.

export function listTodos(db: Database, taskId: string): Todo[] {
  return (db.prepare('SELECT * FROM todos WHERE task_id = ? ORDER BY position').all(taskId) as Row[]).map(
    toTodo,
  );
}

export function getTodo(db: Database, id: string): Todo {
  const row = db.prepare('SELECT * FROM todos WHERE id = ?').get(id) as Row | undefined;
  if (!row) throw recordNotFound.todo(id);
  return toTodo(row);
}

export function replaceTodos(db: Database, taskId: string, items: NewTodo[]): Todo[] {
  const now = nowIso();
  immediate(db, () => {
    db.prepare('DELETE FROM todos WHERE task_id = ?').run(taskId);
    const insert = db.prepare(
      `INSERT INTO todos (id, task_id, position, title, description, expected_output, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
    );
    items.forEach((item, index) => {
      insert.run(
        newId('todo'),
        taskId,
        index + 1,
        item.title,
        item.description,
        item.expected_output,
        now,
        now,
      );
    });
  });
  return listTodos(db, taskId);
}

export function updateTodo(db: Database, id: string, patch: TodoPatch): Todo {
  const { sql, values } = assignments(patch);
  db.prepare(`UPDATE todos SET ${sql} WHERE id = ?`).run(...values, id);
  return getTodo(db, id);
}

export function insertTodo(db: Database, taskId: string, item: NewTodo, position?: number): Todo {
  const id = newId('todo');
  const now = nowIso();
  immediate(db, () => {
    const count = listTodos(db, taskId).length;
    const at = Math.min(position ?? count + 1, count + 1);
    db.prepare('UPDATE todos SET position = position + 1 WHERE task_id = ? AND position >= ?').run(
      taskId,
      at,
    );
    db.prepare(
      `INSERT INTO todos (id, task_id, position, title, description, expected_output, status, origin, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
    ).run(
      id,
      taskId,
      at,
      item.title,
      item.description,
      item.expected_output,
      JSON.stringify(item.origin ?? { kind: 'plan' }),
      now,
      now,
    );
  });
  return getTodo(db, id);
}

export function removeTodo(db: Database, id: string): void {
  const todo = getTodo(db, id);
  immediate(db, () => {
    db.prepare('DELETE FROM todos WHERE id = ?').run(id);
    db.prepare('UPDATE todos SET position = position - 1 WHERE task_id = ? AND position > ?').run(
      todo.task_id,
      todo.position,
    );
  });
}

export function reorderTodos(db: Database, taskId: string, ids: string[]): Todo[] {
  const now = nowIso();
  immediate(db, () => {
    const update = db.prepare('UPDATE todos SET position = ?, updated_at = ? WHERE id = ? AND task_id = ?');
    ids.forEach((id, index) => {
      update.run(index + 1, now, id, taskId);
    });
  });
  return listTodos(db, taskId);
}

export function planVersions(db: Database, taskId: string): PlanVersion[] {
  return (
    db.prepare('SELECT * FROM plan_versions WHERE task_id = ? ORDER BY version').all(taskId) as Row[]
  ).map((row) => ({ ...row }) as unknown as PlanVersion);
}

export function planVersion(db: Database, taskId: string, version: number): PlanVersion {
  const row = db
    .prepare('SELECT * FROM plan_versions WHERE task_id = ? AND version = ?')
    .get(taskId, version) as PlanVersion | undefined;
  if (!row) throw recordNotFound.planVersion(taskId, version);
  return { ...row };
}

export function addPlanVersion(
  db: Database,
  taskId: string,
  content: string,
  source: PlanVersion['source'],
  sessionId: string | null,
): PlanVersion {
  const last = db
    .prepare('SELECT MAX(version) AS version FROM plan_versions WHERE task_id = ?')
    .get(taskId) as { version: number | null };
  const version = (last.version ?? 0) + 1;
  db.prepare(
    'INSERT INTO plan_versions (task_id, version, content, source, session_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(taskId, version, content, source, sessionId, nowIso());
  return planVersion(db, taskId, version);
}
