import { WorkbenchError } from '@keel/workbench';
import pg from 'pg';
import { toStoreError } from '../database.ts';

// The workbench store's connection: its tables, queries that never let a raw driver error out, transactions.

/** The workbench's tables, prefixed so they can share a schema with the run store (which has `projects`). */
export interface WorkbenchTables {
  schema: string;
  migrations: string;
  settings: string;
  projects: string;
  knowledge: string;
  sessions: string;
  tasks: string;
  taskSessions: string;
  todos: string;
  planVersions: string;
  skills: string;
  skillLinks: string;
  conversations: string;
}

export function workbenchTables(schema: string): WorkbenchTables {
  const q = `"${schema}"`;
  const table = (name: string) => `${q}.workbench_${name}`;
  return {
    schema: q,
    migrations: table('migrations'),
    settings: table('settings'),
    projects: table('projects'),
    knowledge: table('knowledge'),
    sessions: table('sessions'),
    tasks: table('tasks'),
    taskSessions: table('task_sessions'),
    todos: table('todos'),
    planVersions: table('plan_versions'),
    skills: table('skills'),
    skillLinks: table('skill_links'),
    conversations: table('conversations'),
  };
}

/**
 * The current time as the rows keep it: the database's clock (one clock for every process and machine),
 * to the millisecond as `new Date().toISOString()` writes it, fixed for the statement.
 */
export const now = "date_trunc('milliseconds', statement_timestamp())";

export type Row = Record<string, unknown>;

/** Answers the workbench's own error for a constraint the statement broke (an unknown parent, a name in use). */
export type Violation = (pgCode: string, constraint: string | undefined) => WorkbenchError | undefined;

/** What the query functions run on: the pool, or the one connection of a transaction. */
export interface Sql {
  readonly t: WorkbenchTables;
  rows<T = Row>(text: string, values?: unknown[], violation?: Violation): Promise<T[]>;
  row<T = Row>(text: string, values?: unknown[], violation?: Violation): Promise<T | undefined>;
}

type Queryable = Pick<pg.Pool, 'query'>;

class Connection implements Sql {
  readonly t: WorkbenchTables;
  readonly #on: Queryable;

  constructor(on: Queryable, t: WorkbenchTables) {
    this.#on = on;
    this.t = t;
  }

  async rows<T = Row>(text: string, values: unknown[] = [], violation?: Violation): Promise<T[]> {
    if (values.some(hasNul)) {
      // PostgreSQL's text cannot hold a NUL character (SQLite's can): no stored value equals a parameter
      // with one, so a read or a delete matches nothing, and a write of one is refused in words.
      if (/^\s*(SELECT|DELETE)\b/i.test(text)) return [];
      throw new WorkbenchError(
        'INVALID_PARAMS',
        'The PostgreSQL store cannot keep text with a NUL character (\\u0000).',
      );
    }
    try {
      return (await this.#on.query(text, values)).rows as T[];
    } catch (error) {
      const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
      const known =
        typeof code === 'string'
          ? violation?.(code, typeof constraint === 'string' ? constraint : undefined)
          : undefined;
      throw known ?? storeError(error);
    }
  }

  async row<T = Row>(text: string, values: unknown[] = [], violation?: Violation): Promise<T | undefined> {
    return (await this.rows<T>(text, values, violation))[0];
  }
}

/** Whether a parameter (or an array parameter's item) is text with a NUL character. */
export function hasNul(value: unknown): boolean {
  return typeof value === 'string' ? value.includes('\0') : Array.isArray(value) && value.some(hasNul);
}

/** A driver or network error as the workbench's 500 STORE_ERROR, worded as the run store words it. */
export function storeError(error: unknown): WorkbenchError {
  if (WorkbenchError.is(error)) return error;
  const failure = toStoreError(error);
  return new WorkbenchError('STORE_ERROR', failure.message, failure.details);
}

/** The pool with the tables; `transaction` runs several statements as one atomic step on one connection. */
export class WorkbenchDatabase extends Connection {
  readonly pool: pg.Pool;

  constructor(pool: pg.Pool, schema: string) {
    super(pool, workbenchTables(schema));
    this.pool = pool;
  }

  /**
   * BEGIN, `work`, COMMIT; anything `work` throws (its own errors pass as they are) or a failed COMMIT
   * rolls back and is thrown. Row locks taken inside (`FOR UPDATE`) hold until the end.
   */
  async transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw storeError(error);
    }
    const sql = new Connection(client, this.t);
    let broken = false;
    try {
      await sql.rows('BEGIN');
      const result = await work(sql);
      await sql.rows('COMMIT');
      return result;
    } catch (error) {
      // A connection that cannot even roll back is dropped rather than handed to the next caller.
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

const timestamptz = pg.types.builtins.TIMESTAMPTZ;
const parseTimestamp = pg.types.getTypeParser(timestamptz) as (text: string) => Date;

/**
 * The pool's type parsers: timestamps come back as the ISO 8601 strings the contract answers
 * (`2026-01-02T03:04:05.678Z`), never as Date objects; every other type as the driver parses it (json
 * columns as their values, bigint as strings).
 */
export const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === timestamptz
      ? (text: string) => parseTimestamp(text).toISOString()
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** A JSON column's parameter: its text (null stays SQL NULL); `json` columns keep it as written, key order too. */
export function jsonParam(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** A patch's field as a quoted column name (a name that is no column then fails in the database). */
export function column(key: string): string {
  if (!/^[a-z_]+$/.test(key)) throw new WorkbenchError('INVALID_PARAMS', `No field '${key}'.`, { key });
  return `"${key}"`;
}

/**
 * The SET list of an UPDATE from a patch (fields left undefined are skipped) with updated_at, and its
 * values numbered from `$1`. Field names come from the contract's patch types; they are quoted, and one
 * that is not a column fails in the database (a STORE_ERROR), as it does on SQLite.
 */
export function setList(
  patch: Record<string, unknown>,
  jsonColumns: ReadonlySet<string>,
): { sql: string; values: unknown[] } {
  const columns: string[] = [];
  const values: unknown[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    values.push(jsonColumns.has(key) ? jsonParam(value) : value);
    columns.push(`${column(key)} = $${values.length}`);
  }
  columns.push(`updated_at = ${now}`);
  return { sql: columns.join(', '), values };
}
