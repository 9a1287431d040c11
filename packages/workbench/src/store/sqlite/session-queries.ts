import { newId } from '@keel/runtime/store';
import { WorkbenchError } from '../../errors.ts';
import type { SessionContext, SessionRecord } from '../../sessions/index.ts';
import { fromJson, nowIso } from '../database.ts';
import type { NewSession, SessionPatch, StoredSession } from '../records/session.ts';
import type { Database, Row } from './database.ts';

// The sessions table: one row per session, its status snapshot.

function toSession(row: Row): StoredSession {
  return {
    id: row.id as string,
    kind: row.kind as SessionRecord['kind'],
    owner_id: (row.owner_id as string | null) ?? null,
    status: row.status as SessionRecord['status'],
    runner: (row.runner as SessionRecord['runner']) ?? null,
    runner_config_id: row.runner_config_id as string,
    runner_session_id: (row.runner_session_id as string | null) ?? null,
    run_id: (row.run_id as string | null) ?? null,
    context: fromJson<SessionContext>(row.context, { workdir: '', skillDirs: [] }),
    error: fromJson(row.error, null),
    usage: fromJson(row.usage, null),
    last_seq: Number(row.last_seq),
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
    ended_at: (row.ended_at as string | null) ?? null,
  };
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
  if (!found) throw new WorkbenchError('SESSION_NOT_FOUND', `No session '${id}'.`, { session_id: id });
  return found;
}

export function updateSession(db: Database, id: string, patch: SessionPatch): StoredSession {
  const columns: string[] = [];
  const values: (string | number | null)[] = [];
  for (const [key, value] of Object.entries(patch)) {
    columns.push(`${key} = ?`);
    const json = key === 'context' || key === 'error' || key === 'usage';
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
