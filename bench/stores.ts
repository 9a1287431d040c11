// The stores a benchmark measures: SQLite always, PostgreSQL when KEEL_BENCH_PG_URL (or KEEL_TEST_PG_URL)
// names a server. Each comes with a cleanup that removes what the benchmark wrote.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteRunStore, type RunStore } from '@keel/runtime';

export interface BenchStore {
  name: string;
  store: RunStore;
  cleanup(): Promise<void>;
}

export async function benchStores(): Promise<BenchStore[]> {
  const home = await mkdtemp(join(tmpdir(), 'keel-bench-store-'));
  const sqlite = await openSqliteRunStore(join(home, 'keel.db'));
  const stores: BenchStore[] = [
    {
      name: 'sqlite',
      store: sqlite,
      cleanup: async () => {
        await sqlite.close();
        await rm(home, { recursive: true, force: true });
      },
    },
  ];
  const url = process.env.KEEL_BENCH_PG_URL ?? process.env.KEEL_TEST_PG_URL;
  if (url) {
    const { createPostgresStore } = await import('@keel/store-postgres');
    const schema = `keel_bench_${process.pid}`;
    const store = await createPostgresStore({ url, schema });
    stores.push({
      name: 'postgres',
      store,
      cleanup: async () => {
        await store.close();
        const pg = await import('pg');
        const client = new pg.default.Client({ connectionString: url });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      },
    });
  } else {
    console.log(JSON.stringify({ bench: 'stores', note: 'PostgreSQL skipped: set KEEL_BENCH_PG_URL' }));
  }
  return stores;
}
