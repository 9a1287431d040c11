import { KeelError, RunNotFoundError, StoreError } from '@keel/runtime/errors';
import type pg from 'pg';

/** The notification channel every store writes to on an event or a status change; the payload is a run id. */
export const channel = 'keel_run_events';

const identifier = /^[a-z_][a-z0-9_]{0,62}$/;

/** True for a schema name that is safe to splice into SQL unquoted-equivalent (`keel`, `keel_test_1`). */
export function isSchemaName(name: string): boolean {
  return identifier.test(name);
}

/** The tables of one schema, qualified so that several schemas can share a database (one per test file). */
export interface Tables {
  schema: string;
  runs: string;
  events: string;
  steps: string;
  checkpoints: string;
  approvals: string;
  artifacts: string;
  controls: string;
  inputs: string;
  audit: string;
}

export function tablesOf(schema: string): Tables {
  const q = `"${schema}"`;
  return {
    schema: q,
    runs: `${q}.runs`,
    events: `${q}.run_events`,
    steps: `${q}.run_steps`,
    checkpoints: `${q}.run_checkpoints`,
    approvals: `${q}.run_approvals`,
    artifacts: `${q}.run_artifacts`,
    controls: `${q}.run_controls`,
    inputs: `${q}.run_inputs`,
    audit: `${q}.audit_log`,
  };
}

export interface QueryOptions {
  /** A prepared-statement name: the hot paths skip parsing and planning after the first call. */
  name?: string;
  /** Turns a foreign-key violation into RunNotFoundError for this run (the row named an unknown run). */
  runId?: string;
}

/** The pool plus the table names; every query goes through `rows` so no raw driver error escapes. */
export class Database {
  readonly pool: pg.Pool;
  readonly t: Tables;

  constructor(pool: pg.Pool, schema: string) {
    this.pool = pool;
    this.t = tablesOf(schema);
  }

  async rows<T>(text: string, values: unknown[] = [], options: QueryOptions = {}): Promise<T[]> {
    try {
      const result = await this.pool.query({ text, values, name: options.name });
      return result.rows as T[];
    } catch (error) {
      if (options.runId !== undefined && pgCode(error) === '23503') throw new RunNotFoundError(options.runId);
      throw toStoreError(error);
    }
  }

  async row<T>(text: string, values: unknown[] = [], options: QueryOptions = {}): Promise<T | undefined> {
    const rows = await this.rows<T>(text, values, options);
    return rows[0];
  }
}

function pgCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Wraps a driver or network error; the message is PostgreSQL's own, which never carries the password. */
export function toStoreError(error: unknown): KeelError {
  if (KeelError.is(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = pgCode(error);
  return new StoreError(
    `The PostgreSQL store failed: ${message}`,
    code === undefined ? undefined : { pg_code: code },
    { cause: error },
  );
}

/** A connection string safe to show: the password is replaced. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable connection string)';
  }
}

/** JSON for a jsonb parameter. Always a string: the driver would turn a JS array into a PostgreSQL array. */
export function json(value: unknown): string {
  return JSON.stringify(value ?? null);
}
