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

/** Parses a JSON column, tolerating NULL. */
export function fromJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string') return fallback;
  return JSON.parse(text) as T;
}

export function nowIso(): string {
  return new Date().toISOString();
}
