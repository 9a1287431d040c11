import { newId } from '@keel/runtime/store';
import type { Conversation } from '@keel/workbench';
import { recordNotFound } from '@keel/workbench';
import type { Sql } from './database.ts';
import { hasNul, now, setList } from './database.ts';
import { unknownProject } from './project-queries.ts';

// Free conversations (about a project or not). Rows read as they are: the table's columns are the record's.

export async function listConversations(db: Sql, projectId?: string): Promise<Conversation[]> {
  return projectId
    ? db.rows<Conversation>(
        `SELECT * FROM ${db.t.conversations} WHERE project_id = $1 ORDER BY created_at, id`,
        [projectId],
      )
    : db.rows<Conversation>(`SELECT * FROM ${db.t.conversations} ORDER BY created_at, id`);
}

export async function getConversation(db: Sql, id: string): Promise<Conversation> {
  const row = await db.row<Conversation>(`SELECT * FROM ${db.t.conversations} WHERE id = $1`, [id]);
  if (!row) throw recordNotFound.conversation(id);
  return row;
}

export async function createConversation(
  db: Sql,
  input: { title: string; project_id: string | null },
): Promise<Conversation> {
  const row = await db.row<Conversation>(
    `INSERT INTO ${db.t.conversations} (id, title, project_id, created_at, updated_at)
     VALUES ($1, $2, $3, ${now}, ${now}) RETURNING *`,
    [newId('conv'), input.title, input.project_id],
    unknownProject(input.project_id),
  );
  return row as Conversation;
}

export async function updateConversation(
  db: Sql,
  id: string,
  patch: { title?: string; session_id?: string },
): Promise<Conversation> {
  if (hasNul(id)) throw recordNotFound.conversation(id);
  // Nothing to set leaves updated_at as it was, as on SQLite.
  if (patch.title === undefined && patch.session_id === undefined) return getConversation(db, id);
  const { sql, values } = setList({ title: patch.title, session_id: patch.session_id }, new Set());
  const row = await db.row<Conversation>(
    `UPDATE ${db.t.conversations} SET ${sql} WHERE id = $${values.length + 1} RETURNING *`,
    [...values, id],
  );
  if (!row) throw recordNotFound.conversation(id);
  return row;
}

export async function removeConversation(db: Sql, id: string): Promise<void> {
  await db.rows(`DELETE FROM ${db.t.conversations} WHERE id = $1`, [id]);
}
