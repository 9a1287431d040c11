import { newId } from '@keel/runtime/store';
import type { NewSession, SessionPatch, StoredSession } from '@keel/workbench';
import { recordNotFound, sessionFromRow, sessionJsonColumns } from '@keel/workbench';
import type { Row, Sql } from './database.ts';
import { hasNul, jsonParam, now, setList } from './database.ts';

// The sessions: one row per session, its status snapshot (its events are in the session log).

export async function createSession(db: Sql, input: NewSession): Promise<StoredSession> {
  const row = await db.row(
    `INSERT INTO ${db.t.sessions} (id, kind, owner_id, status, runner_config_id, context, created_at, updated_at)
     VALUES ($1, $2, $3, 'queued', $4, $5, ${now}, ${now}) RETURNING *`,
    [newId('wses'), input.kind, input.ownerId, input.runnerConfigId, jsonParam(input.context)],
  );
  return sessionFromRow(row as Row);
}

export async function findSession(db: Sql, id: string): Promise<StoredSession | undefined> {
  const row = await db.row(`SELECT * FROM ${db.t.sessions} WHERE id = $1`, [id]);
  return row ? sessionFromRow(row) : undefined;
}

export async function getSession(db: Sql, id: string): Promise<StoredSession> {
  const found = await findSession(db, id);
  if (!found) throw recordNotFound.session(id);
  return found;
}

export async function updateSession(db: Sql, id: string, patch: SessionPatch): Promise<StoredSession> {
  if (hasNul(id)) throw recordNotFound.session(id);
  const { sql, values } = setList(patch, sessionJsonColumns);
  const row = await db.row(
    `UPDATE ${db.t.sessions} SET ${sql} WHERE id = $${values.length + 1} RETURNING *`,
    [...values, id],
  );
  if (!row) throw recordNotFound.session(id);
  return sessionFromRow(row);
}

export async function sessionsByStatus(db: Sql, status: StoredSession['status']): Promise<StoredSession[]> {
  const rows = await db.rows(`SELECT * FROM ${db.t.sessions} WHERE status = $1 ORDER BY created_at, id`, [
    status,
  ]);
  return rows.map(sessionFromRow);
}

/** Compared as times (timestamptz), which for the contract's UTC ISO strings is SQLite's text order. */
export async function sessionsEndedBefore(db: Sql, before: string): Promise<StoredSession[]> {
  const rows = await db.rows(
    `SELECT * FROM ${db.t.sessions}
     WHERE status IN ('succeeded', 'failed', 'cancelled') AND ended_at IS NOT NULL AND ended_at < $1
     ORDER BY created_at, id`,
    [before],
  );
  return rows.map(sessionFromRow);
}

export async function sessionsByOwner(db: Sql, ownerId: string): Promise<StoredSession[]> {
  const rows = await db.rows(`SELECT * FROM ${db.t.sessions} WHERE owner_id = $1 ORDER BY created_at, id`, [
    ownerId,
  ]);
  return rows.map(sessionFromRow);
}
