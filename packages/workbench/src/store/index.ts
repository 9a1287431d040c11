export type * from './contract.ts';
export { fromJson, nowIso } from './database.ts';
export { openWorkbenchStore } from './open-store.ts';
export {
  createSqliteWorkbenchStore,
  type Database,
  imageInfoOf,
  migrations,
  openDatabase,
  SqliteWorkbenchStore,
} from './sqlite/index.ts';
export { storeFailure } from './store-failure.ts';
