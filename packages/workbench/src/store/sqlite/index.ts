// The SQLite dialect of the WorkbenchStore contract: the embedded default, one database file (WAL).
export { type Database, immediate, openDatabase } from './database.ts';
export { migrations } from './migrations.ts';
// The dialect's queries, synchronous: only for the faces not yet moved to the contract (TaskStore, …).
export * as projectQueries from './project-queries.ts';
export * as sessionQueries from './session-queries.ts';
export { createSqliteWorkbenchStore, SqliteWorkbenchStore } from './sqlite-workbench-store.ts';
export * as taskQueries from './task-queries.ts';
export { imageInfoOf } from './task-rows.ts';
export * as todoQueries from './todo-queries.ts';
