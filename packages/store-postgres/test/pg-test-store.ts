import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { PostgresRunStore } from '../src/index.ts';
import { createPostgresStore } from '../src/index.ts';

/** Set (e.g. `postgres://postgres@127.0.0.1:5432/test`) to run the PostgreSQL tests; unset, they are skipped. */
export const pgUrl = process.env.KEEL_TEST_PG_URL;

export function randomSchema(): string {
  return `keel_test_${randomBytes(6).toString('hex')}`;
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * A throwaway schema with a store on it. `reopen` opens another store (its own pool: another process, as
 * far as PostgreSQL can tell) on the same schema; `cleanup` closes every store and drops the schema.
 */
export async function openTestStore(url: string): Promise<{
  store: PostgresRunStore;
  schema: string;
  reopen: () => Promise<PostgresRunStore>;
  cleanup: () => Promise<void>;
}> {
  const schema = randomSchema();
  const opened: PostgresRunStore[] = [];
  const open = async () => {
    const store = await createPostgresStore({ url, schema });
    opened.push(store);
    return store;
  };
  const store = await open();
  return {
    store,
    schema,
    reopen: open,
    cleanup: async () => {
      await Promise.all(opened.map((each) => each.close()));
      await dropSchema(url, schema);
    },
  };
}
