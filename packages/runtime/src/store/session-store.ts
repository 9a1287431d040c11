import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SessionNotFoundError } from '../errors/index.ts';
import type { ChatMessage, ImagePayload } from '../model/index.ts';
import { newId } from './ids.ts';
import { sqliteFailure } from './sqlite/index.ts';

/** The spec's Session record; timestamps are ISO 8601 without offset (UTC). */
export interface Session {
  id: string;
  title: string;
  model: string;
  workdir: string;
  message_count: number;
  created_at: string;
  updated_at: string;
}

/** A message as the session detail shows it. */
export interface SessionMessage {
  role: ChatMessage['role'];
  content: string;
  timestamp: string;
  images: ImagePayload[] | null;
}

export interface SessionDetail extends Session {
  messages: SessionMessage[];
}

interface SessionRow {
  id: string;
  title: string;
  model: string;
  workdir: string;
  created_at: string;
  updated_at: string;
  message_count: number;
}

/** ISO 8601 in UTC without the offset, as the spec shows session timestamps. */
export function localTimestamp(date: Date): string {
  return date.toISOString().slice(0, -1);
}

const selectSession = `SELECT s.*, (SELECT COUNT(*) FROM session_messages m WHERE m.session_id = s.id) AS message_count
  FROM sessions s`;

/** Sessions and their conversations in the single-machine store. */
export class SessionStore {
  readonly #db: DatabaseSync;
  readonly #now: () => Date;
  #appendStatements: { insert: StatementSync; touch: StatementSync } | undefined;

  constructor(db: DatabaseSync, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#now = now;
  }

  create(input: { title?: string; model?: string; workdir?: string } = {}): Session {
    const now = localTimestamp(this.#now());
    const id = newId('ses');
    this.#sql(() =>
      this.#db
        .prepare(
          'INSERT INTO sessions (id, title, model, workdir, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(id, input.title || 'New session', input.model ?? '', input.workdir ?? '', now, now),
    );
    return this.get(id);
  }

  /**
   * Most recently updated first; `workdir` keeps only that folder's sessions, `offset` skips the first ones
   * (an editor pages through them).
   */
  list(limit = 20, filter: { workdir?: string; offset?: number } = {}): Session[] {
    const where = filter.workdir === undefined ? '' : 'WHERE s.workdir = ?';
    const params = filter.workdir === undefined ? [] : [filter.workdir];
    const rows = this.#sql(
      () =>
        this.#db
          .prepare(`${selectSession} ${where} ORDER BY s.updated_at DESC, s.id DESC LIMIT ? OFFSET ?`)
          .all(...params, limit, filter.offset ?? 0) as unknown as SessionRow[],
    );
    return rows.map(toSession);
  }

  /** Throws SessionNotFoundError when the id is unknown. */
  get(id: string): Session {
    const row = this.#sql(
      () => this.#db.prepare(`${selectSession} WHERE s.id = ?`).get(id) as SessionRow | undefined,
    );
    if (!row) throw new SessionNotFoundError(id);
    return toSession(row);
  }

  detail(id: string): SessionDetail {
    const session = this.get(id);
    const rows = this.#sql(
      () =>
        this.#db
          .prepare('SELECT data, created_at FROM session_messages WHERE session_id = ? ORDER BY seq')
          .all(id) as { data: string; created_at: string }[],
    );
    const messages = rows.map(({ data, created_at }): SessionMessage => {
      const message = JSON.parse(data) as ChatMessage;
      const images = message.role === 'user' && message.images?.length ? message.images : null;
      return { role: message.role, content: message.content, timestamp: created_at, images };
    });
    return { ...session, messages };
  }

  /** The conversation to continue from, in the model's message shape. */
  conversation(id: string): ChatMessage[] {
    this.get(id);
    const rows = this.#sql(
      () =>
        this.#db.prepare('SELECT data FROM session_messages WHERE session_id = ? ORDER BY seq').all(id) as {
          data: string;
        }[],
    );
    return rows.map((row) => JSON.parse(row.data) as ChatMessage);
  }

  /** The message and the session's new updated_at are one transaction: both are stored, or neither. */
  append(id: string, message: ChatMessage): void {
    const now = localTimestamp(this.#now());
    this.#sql(() => {
      // Prepared once: a run appends every message of every turn here.
      this.#appendStatements ??= {
        insert: this.#db.prepare(
          `INSERT INTO session_messages (session_id, seq, role, data, created_at)
           VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM session_messages WHERE session_id = ?), ?, ?, ?)`,
        ),
        touch: this.#db.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?'),
      };
      const { insert, touch } = this.#appendStatements;
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        insert.run(id, id, message.role, JSON.stringify(message), now);
        touch.run(now, id);
        this.#db.exec('COMMIT');
      } catch (error) {
        if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  update(id: string, fields: { title?: string; model?: string }): Session {
    const session = this.get(id);
    this.#sql(() =>
      this.#db
        .prepare('UPDATE sessions SET title = ?, model = ? WHERE id = ?')
        .run(fields.title ?? session.title, fields.model ?? session.model, id),
    );
    return this.get(id);
  }

  /** Throws SessionNotFoundError when the id is unknown. */
  delete(id: string): void {
    const result = this.#sql(() => this.#db.prepare('DELETE FROM sessions WHERE id = ?').run(id));
    if (result.changes === 0) throw new SessionNotFoundError(id);
  }

  /** Runs SQL; a raw SQLite failure (full disk, read-only file, lock held too long) becomes a STORE_ERROR. */
  #sql<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw sqliteFailure(this.#db, error);
    }
  }
}

function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    title: row.title,
    model: row.model,
    workdir: row.workdir,
    message_count: Number(row.message_count),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
