// The embedded SQLite store: the RunStore contract on one database file (WAL) that several processes share.
export { isBusy, openSqlite, retryWhileBusy } from './database.ts';
export { migrations } from './migrations.ts';
export { openSqliteRunStore } from './open-sqlite-run-store.ts';
export { sqliteFailure } from './sqlite-failure.ts';
export type { SqliteRunStoreOptions } from './sqlite-run-store.ts';
export { SqliteRunStore } from './sqlite-run-store.ts';
