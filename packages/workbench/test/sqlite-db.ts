import type { Services } from '../src/services.ts';
import { type Database, SqliteWorkbenchStore } from '../src/store/index.ts';

/** The SQLite connection under a workbench's store: a test's back door to set up or inspect rows. */
export function sqliteDb(services: Services): Database {
  if (!(services.store instanceof SqliteWorkbenchStore)) {
    throw new Error(`This test reads SQLite rows directly; the store is ${services.store.kind}.`);
  }
  return services.store.db;
}
