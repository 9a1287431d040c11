import { newId } from '@keel/runtime/store';
import { nowIso } from '../database.ts';
import { recordNotFound } from '../not-found.ts';
import type { Conversation } from '../records/conversation.ts';
import type { Database } from './database.ts';

// The conversations table.

export function listConversations(db: Database, projectId?: string): Conversation[] {
  const rows = projectId
    ? db.prepare('SELECT * FROM conversations WHERE project_id = ? ORDER BY created_at, id').all(projectId)
    : db.prepare('SELECT * FROM conversations ORDER BY created_at, id').all();
  return rows.map((row) => ({ ...row }) as unknown as Conversation);
}

export function getConversation(db: Database, id: string): Conversation {
  const row = db.prepare('SELECT * FROM conversations WHERE id = ?').get(id) as Conversation | undefined;
  if (!row) throw recordNotFound.conversation(id);
  return { ...row };
}

export function createConversation(
  db: Database,
  input: { title: string; project_id: string | null },
): Conversation {
  const id = newId('conv');
  const now = nowIso();
  db.prepare(
    'INSERT INTO conversations (id, title, project_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
  ).run(id, input.title, input.project_id, now, now);
  return getConversation(db, id);
}

export function updateConversation(
  db: Database,
  id: string,
  patch: { title?: string; session_id?: string },
): Conversation {
  getConversation(db, id);
  const now = nowIso();
  if (patch.title !== undefined) {
    db.prepare('UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?').run(patch.title, now, id);
  }
  if (patch.session_id !== undefined) {
    db.prepare('UPDATE conversations SET session_id = ?, updated_at = ? WHERE id = ?').run(
      patch.session_id,
      now,
      id,
    );
  }
  return getConversation(db, id);
}

export function removeConversation(db: Database, id: string): void {
  db.prepare('DELETE FROM conversations WHERE id = ?').run(id);
}
