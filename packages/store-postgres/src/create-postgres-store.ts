import { InvalidParamsError, StoreError } from '@keel/runtime/errors';
import pg from 'pg';
import { isSchemaName, redactUrl } from './database.ts';
import { migrate } from './migrations.ts';
import { NotificationHub } from './notifications.ts';
import { PostgresRunStore } from './postgres-store.ts';

export interface PostgresStoreOptions {
  /** A PostgreSQL connection string, e.g. `postgres://keel:secret@db:5432/keel`. */
  url: string;
  /** The schema holding Keel's tables, created if missing. Default `keel`. */
  schema?: string;
  /** Your own pool, shared with the rest of the application; `url` then only names it in errors. */
  pool?: pg.Pool;
}

/**
 * Connects, brings the schema up to date (safe when several processes start at once), opens the connection
 * that listens for other processes' changes, and returns the store.
 *
 * @example
 * const store = await createPostgresStore({ url: process.env.DATABASE_URL!, schema: 'keel' });
 * try {
 *   const run = await store.createRun({ session_id: null, workdir: '/repo', prompt: 'hi', workflow: null, input: {} });
 * } finally {
 *   await store.close();
 * }
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresRunStore> {
  const schema = options.schema ?? 'keel';
  if (!isSchemaName(schema)) {
    throw new InvalidParamsError(
      `Schema name '${schema}' is not allowed: use lower-case letters, digits and underscores (at most 63).`,
      { schema },
    );
  }
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.url });
  // An idle connection that drops emits 'error' on the pool, which would crash the process unheard.
  if (ownsPool) pool.on('error', () => {});
  const hub = new NotificationHub(pool.options);
  try {
    await migrate(pool, schema);
    await hub.start();
  } catch (error) {
    await hub.close();
    if (ownsPool) await pool.end().catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreError(
      `Could not open the PostgreSQL store at ${redactUrl(options.url)} (schema '${schema}'): ${reason}`,
      { schema },
      { cause: error },
    );
  }
  return new PostgresRunStore(pool, { schema, ownsPool, hub });
}
