import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { migrations } from './migrations.ts';

/** The small part of node:sqlite the workbench uses. */
export type Database = DatabaseSync;

/**
 * Opens (creating if needed) the workbench database in WAL mode, migrated to the latest schema. WAL with
 * synchronous=NORMAL: commits survive a process crash (kill -9), which is what the durability story needs.
 */
export function openDatabase(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA busy_timeout = 5000;');
    if (path !== ':memory:') db.exec('PRAGMA journal_mode = WAL;');
    db.exec('PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function migrate(db: Database): void {
  const { user_version: at } = db.prepare('PRAGMA user_version').get() as { user_version: number };
  for (let version = at; version < migrations.length; version++) {
    db.exec('BEGIN IMMEDIATE;');
    try {
      db.exec(migrations[version] as string);
      db.exec(`PRAGMA user_version = ${version + 1};`);
      db.exec('COMMIT;');
    } catch (error) {
      db.exec('ROLLBACK;');
      throw error;
    }
  }
}

/** Parses a JSON column, tolerating NULL. */
export function fromJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string') return fallback;
  return JSON.parse(text) as T;
}

export function nowIso(): string {
  return new Date().toISOString();
}
