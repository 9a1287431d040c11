import { openSqlite } from './database.ts';
import { ownedDatabases } from './owned-databases.ts';
import { SqliteRunStore, type SqliteRunStoreOptions } from './sqlite-run-store.ts';

/** Opens (creating and migrating) the SQLite database at `path`; the store's close() closes it. */
export function openSqliteRunStore(path: string, options: SqliteRunStoreOptions = {}): SqliteRunStore {
  const db = openSqlite(path);
  try {
    const store = new SqliteRunStore(db, options);
    ownedDatabases.add(store);
    return store;
  } catch (error) {
    db.close();
    throw error;
  }
}
