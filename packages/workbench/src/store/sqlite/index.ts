// The SQLite dialect of the WorkbenchStore contract: the embedded default, one database file (WAL).
export { type Database, immediate, openDatabase } from './database.ts';
export { migrations } from './migrations.ts';
export { createSqliteWorkbenchStore, SqliteWorkbenchStore } from './sqlite-workbench-store.ts';
