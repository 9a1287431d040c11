import { newId } from '@keel/runtime/store';
import { WorkbenchError } from '../errors.ts';
import { type Database, fromJson, nowIso } from '../store/index.ts';
import type { SessionContext, SessionKind, SessionRecord } from './types.ts';

interface Row {
  [key: string]: unknown;
}

function toRecord(row: Row, busy: (id: string) => boolean): SessionRecord {
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
    busy: busy(row.id as string),
  };
}

/** The sessions table: one row per session, its status snapshot. */
export class SessionStore {
  readonly #db: Database;
  /** Whether a session is held for work now (the session runner's, in memory); set once by the services. */
  busy: (id: string) => boolean = () => false;

  constructor(db: Database) {
    this.#db = db;
  }

  #record = (row: Row): SessionRecord => toRecord(row, this.busy);

  create(input: {
    kind: SessionKind;
    ownerId: string | null;
    runnerConfigId: string;
    context: SessionContext;
  }): SessionRecord {
    const now = nowIso();
    const id = newId('wses');
    this.#db
      .prepare(
        `INSERT INTO sessions (id, kind, owner_id, status, runner_config_id, context, created_at, updated_at)
         VALUES (?, ?, ?, 'queued', ?, ?, ?, ?)`,
      )
      .run(id, input.kind, input.ownerId, input.runnerConfigId, JSON.stringify(input.context), now, now);
    return this.get(id);
  }

  find(id: string): SessionRecord | undefined {
    const row = this.#db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as Row | undefined;
    return row ? this.#record(row) : undefined;
  }

  get(id: string): SessionRecord {
    const found = this.find(id);
    if (!found) throw new WorkbenchError('SESSION_NOT_FOUND', `No session '${id}'.`, { session_id: id });
    return found;
  }

  update(id: string, patch: Partial<Omit<SessionRecord, 'id' | 'created_at' | 'busy'>>): SessionRecord {
    const columns: string[] = [];
    const values: (string | number | null)[] = [];
    for (const [key, value] of Object.entries(patch)) {
      columns.push(`${key} = ?`);
      const json = key === 'context' || key === 'error' || key === 'usage';
      values.push(json ? (value === null ? null : JSON.stringify(value)) : (value as string | number | null));
    }
    columns.push('updated_at = ?');
    values.push(nowIso());
    this.#db.prepare(`UPDATE sessions SET ${columns.join(', ')} WHERE id = ?`).run(...values, id);
    return this.get(id);
  }

  byStatus(status: SessionRecord['status']): SessionRecord[] {
    return (this.#db.prepare('SELECT * FROM sessions WHERE status = ?').all(status) as Row[]).map(
      this.#record,
    );
  }

  /** Finished sessions that ended before `before` (ISO time): their logs may be cleaned up. */
  endedBefore(before: string): SessionRecord[] {
    return (
      this.#db
        .prepare(
          `SELECT * FROM sessions WHERE status IN ('succeeded', 'failed', 'cancelled') AND ended_at IS NOT NULL AND ended_at < ?`,
        )
        .all(before) as Row[]
    ).map(this.#record);
  }

  byOwner(ownerId: string): SessionRecord[] {
    return (
      this.#db.prepare('SELECT * FROM sessions WHERE owner_id = ? ORDER BY created_at').all(ownerId) as Row[]
    ).map(this.#record);
  }
}
