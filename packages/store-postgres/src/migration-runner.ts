import type pg from 'pg';

/** One step of a store's schema: ordered and append-only, a released entry never changes. */
export interface Migration<Tables> {
  version: number;
  sql: (t: Tables) => string;
}

/** What a store migrates: its table names (`schema` quoted), where it lists applied versions, its steps. */
export interface MigrationPlan<Tables extends { schema: string }> {
  tables: Tables;
  /** The store's own table of applied versions, schema-qualified. */
  versionTable: string;
  migrations: readonly Migration<Tables>[];
}

// 'keel' in ASCII: the first half of the two-key advisory lock, the schema's hash is the second. Every store
// of this package takes the same lock, so that two migrating one schema at once take turns (two concurrent
// CREATE SCHEMA IF NOT EXISTS can collide).
const lockKey = 0x6b65656c;

/**
 * Brings a store's tables in `schema` up to date, in one transaction. Several processes may start at once:
 * a transaction-scoped advisory lock per schema lets one migrate while the others wait, then find nothing
 * left to do.
 */
export async function runMigrations<Tables extends { schema: string }>(
  pool: pg.Pool,
  schema: string,
  plan: MigrationPlan<Tables>,
): Promise<void> {
  const { tables, versionTable } = plan;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [lockKey, schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${tables.schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${versionTable} (
         version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const applied = await client.query<{ version: number }>(`SELECT version FROM ${versionTable}`);
    const done = new Set(applied.rows.map((row) => row.version));
    for (const migration of plan.migrations) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql(tables));
      await client.query(`INSERT INTO ${versionTable} (version) VALUES ($1)`, [migration.version]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
