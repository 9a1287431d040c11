import { nowIso } from '../database.ts';
import type { Task, Todo } from '../records/task.ts';
import {
  decodeJson,
  listedTaskFromRow,
  type StageSessions,
  taskFromRow,
  taskJsonColumns,
  todoFromRow,
  withImageInfo,
} from '../rows.ts';
import type { Row } from './database.ts';

// Rows of tasks and todos to records and back: the JSON text columns parsed, then the shared mapping (rows.ts).

export { imageInfoOf, noSessions, type StageSessions } from '../rows.ts';

export function toTask(row: Row, sessions: StageSessions): Task {
  return taskFromRow(decodeJson(row, taskJsonColumns), sessions);
}

export function toListedTask(row: Row, sessions: StageSessions): Omit<Task, 'images'> {
  return listedTaskFromRow(decodeJson(row, taskJsonColumns), sessions);
}

export function toTodo(row: Row): Todo {
  return todoFromRow(decodeJson(row, taskJsonColumns));
}

/** An UPDATE's SET list for `patch` (JSON columns as JSON, images with their sizes) and updated_at. */
export function assignments(patch: Record<string, unknown>): {
  sql: string;
  values: (string | number | null)[];
} {
  const columns: string[] = [];
  const values: (string | number | null)[] = [];
  for (const [key, value] of Object.entries(withImageInfo(patch))) {
    if (value === undefined) continue;
    columns.push(`${key} = ?`);
    values.push(
      taskJsonColumns.has(key) && value !== null ? JSON.stringify(value) : (value as string | number | null),
    );
  }
  columns.push('updated_at = ?');
  values.push(nowIso());
  return { sql: columns.join(', '), values };
}
