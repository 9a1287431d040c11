export { type Database, fromJson, nowIso, openDatabase } from './database.ts';
export { migrations } from './migrations.ts';
export { storeFailure } from './store-failure.ts';
