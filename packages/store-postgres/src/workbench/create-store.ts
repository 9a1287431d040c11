import type { WorkbenchStore } from '@keel/workbench';
import { WorkbenchError } from '@keel/workbench';
import pg from 'pg';
import { isSchemaName, redactUrl } from '../database.ts';
import { types } from './database.ts';
import { migrateWorkbench } from './migrations.ts';
import { PostgresWorkbenchStore } from './postgres-workbench-store.ts';

export interface PostgresWorkbenchStoreOptions {
  /** A PostgreSQL connection string, e.g. `postgres://keel:secret@db:5432/keel`. */
  url: string;
  /**
   * The schema of the workbench's tables (all named `workbench_…`), created if missing. Default `keel`:
   * the run store's schema, which they can share.
   */
  schema?: string;
}

/**
 * Connects, brings the workbench's tables up to date (safe when several processes start at once) and
 * returns the store; `close()` ends its pool.
 *
 * @example
 * const store = await createPostgresWorkbenchStore({ url: process.env.WORKBENCH_DATABASE_URL! });
 * const project = await store.projects.create({ name: 'app', description: '', repositories: [], default_runner: null });
 */
export async function createPostgresWorkbenchStore(
  options: PostgresWorkbenchStoreOptions,
): Promise<WorkbenchStore> {
  const schema = options.schema ?? 'keel';
  if (!isSchemaName(schema)) {
    throw new WorkbenchError(
      'INVALID_PARAMS',
      `Schema name '${schema}' is not allowed: use lower-case letters, digits and underscores (at most 63).`,
      { schema },
    );
  }
  const pool = new pg.Pool({ connectionString: options.url, types });
  // An idle connection that drops emits 'error' on the pool, which would crash the process unheard.
  pool.on('error', () => {});
  try {
    await migrateWorkbench(pool, schema);
  } catch (error) {
    await pool.end().catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    throw new WorkbenchError(
      'STORE_ERROR',
      `Could not open the PostgreSQL workbench store at ${redactUrl(options.url)} (schema '${schema}'): ${reason}`,
      { schema },
    );
  }
  return new PostgresWorkbenchStore(pool, schema);
}
