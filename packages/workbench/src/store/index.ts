export type * from './contract.ts';
export { fromJson, nowIso } from './database.ts';
export { recordNotFound, skillExists } from './not-found.ts';
export { openWorkbenchStore } from './open-store.ts';
export {
  decodeJson,
  imageInfoOf,
  interrupted,
  interruptedTaskPatch,
  listedTaskFromRow,
  noSessions,
  projectFromRow,
  projectJsonColumns,
  type StageSessions,
  type StoreRow,
  sessionFromRow,
  sessionJsonColumns,
  taskFromRow,
  taskJsonColumns,
  todoFromRow,
  withImageInfo,
} from './rows.ts';
export {
  createSqliteWorkbenchStore,
  type Database,
  migrations,
  openDatabase,
  SqliteWorkbenchStore,
} from './sqlite/index.ts';
export { storeFailure } from './store-failure.ts';
export { type WorkbenchQueries, wireWorkbenchStore } from './wire-store.ts';
