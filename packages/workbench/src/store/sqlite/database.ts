import type { DatabaseSync } from 'node:sqlite';
import { openSqlite } from '@keel/runtime/store';
import { migrations } from './migrations.ts';

/** The small part of node:sqlite the workbench uses. */
export type Database = DatabaseSync;

/**
 * Opens (creating if needed) the workbench database with the runtime's SQLite opener: WAL with
 * synchronous=NORMAL (commits survive a kill -9), waits out other processes opening it, then the
 * workbench's own migrations.
 */
export function openDatabase(path: string): Database {
  return openSqlite(path, migrations);
}

export type Row = Record<string, unknown>;

/** Runs `work` holding SQLite's write lock: its reads and writes are one atomic step. */
export function immediate<T>(db: Database, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
