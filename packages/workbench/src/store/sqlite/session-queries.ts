import { newId } from '@keel/runtime/store';
import { nowIso } from '../database.ts';
import { recordNotFound } from '../not-found.ts';
import type { NewSession, SessionPatch, SessionRecord, StoredSession } from '../records/session.ts';
import { decodeJson, sessionFromRow, sessionJsonColumns } from '../rows.ts';
import type { Database, Row } from './database.ts';

// The sessions table: one row per session, its status snapshot.

function toSession(row: Row): StoredSession {
  return sessionFromRow(decodeJson(row, sessionJsonColumns));
}

export function createSession(db: Database, input: NewSession): StoredSession {
  const now = nowIso();
  const id = newId('wses');
  db.prepare(
    `INSERT INTO sessions (id, kind, owner_id, status, runner_config_id, context, created_at, updated_at)
     VALUES (?, ?, ?, 'queued', ?, ?, ?, ?)`,
  ).run(id, input.kind, input.ownerId, input.runnerConfigId, JSON.stringify(input.context), now, now);
  return getSession(db, id);
}

export function findSession(db: Database, id: string): StoredSession | undefined {
  const row = db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as Row | undefined;
  return row ? toSession(row) : undefined;
}

export function getSession(db: Database, id: string): StoredSession {
  const found = findSession(db, id);
  if (!found) throw recordNotFound.session(id);
  return found;
}

export function updateSession(db: Database, id: string, patch: SessionPatch): StoredSession {
  const columns: string[] = [];
  const values: (string | number | null)[] = [];
  for (const [key, value] of Object.entries(patch)) {
    columns.push(`${key} = ?`);
    const json = sessionJsonColumns.has(key);
    values.push(json ? (value === null ? null : JSON.stringify(value)) : (value as string | number | null));
  }
  columns.push('updated_at = ?');
  values.push(nowIso());
  db.prepare(`UPDATE sessions SET ${columns.join(', ')} WHERE id = ?`).run(...values, id);
  return getSession(db, id);
}

export function sessionsByStatus(db: Database, status: SessionRecord['status']): StoredSession[] {
  return (db.prepare('SELECT * FROM sessions WHERE status = ?').all(status) as Row[]).map(toSession);
}

export function sessionsEndedBefore(db: Database, before: string): StoredSession[] {
  return (
    db
      .prepare(
        `SELECT * FROM sessions WHERE status IN ('succeeded', 'failed', 'cancelled') AND ended_at IS NOT NULL AND ended_at < ?`,
      )
      .all(before) as Row[]
  ).map(toSession);
}

export function sessionsByOwner(db: Database, ownerId: string): StoredSession[] {
  return (
    db.prepare('SELECT * FROM sessions WHERE owner_id = ? ORDER BY created_at').all(ownerId) as Row[]
  ).map(toSession);
}
