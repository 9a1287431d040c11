import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { migrations } from './migrations.ts';
import { openFailure } from './sqlite-failure.ts';

/** How long opening waits out other processes creating, converting or migrating the same file. */
const OPEN_DEADLINE_MS = 15_000;

/**
 * Opens (creating if needed) a SQLite database in WAL mode, migrated to the latest schema: the runtime's
 * own by default, or `schema` (each entry one migration, applied once in order, tracked by user_version),
 * for an embedder with tables of its own (the workbench). A failure is a STORE_ERROR naming the file.
 */
export function openSqlite(path: string, schema: readonly string[] = migrations): DatabaseSync {
  let db: DatabaseSync;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new DatabaseSync(path);
  } catch (error) {
    throw openFailure(path, error);
  }
  try {
    // busy_timeout first: several processes may open and migrate the same new database at once.
    db.exec('PRAGMA busy_timeout = 5000;');
    retryWhileBusy(() => {
      // WAL with synchronous=NORMAL: commits survive a process crash and event appends stay cheap. WAL is
      // stored in the file, so only a new database is converted (the conversion needs an exclusive lock).
      const { journal_mode } = db.prepare('PRAGMA journal_mode').get() as { journal_mode: string };
      if (journal_mode !== 'wal' && path !== ':memory:') db.exec('PRAGMA journal_mode = WAL;');
      db.exec('PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
      migrate(db, schema);
    });
    return db;
  } catch (error) {
    db.close();
    // A full disk, a read-only file or directory, a lock held too long: a STORE_ERROR saying which.
    throw openFailure(path, error);
  }
}

/**
 * Runs `work` again while SQLite reports the database busy or locked. busy_timeout covers ordinary lock
 * waits, but SQLite skips the busy handler where waiting could deadlock (a journal-mode change, a read
 * lock upgraded while another process converts or recovers the file), and then fails at once.
 */
export function retryWhileBusy<T>(work: () => T, deadlineMs = OPEN_DEADLINE_MS): T {
  const deadline = Date.now() + deadlineMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      sleepSync(Math.min(10 * attempt, 200));
    }
  }
}

/** SQLITE_BUSY (5) or SQLITE_LOCKED (6), extended codes included. */
export function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown })?.errcode;
  if (typeof code === 'number') return [5, 6].includes(code & 0xff);
  return /database (table )?is locked|SQLITE_BUSY/i.test(String((error as Error)?.message ?? error));
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Brings the schema up to date; the write lock is taken before re-reading the version, so racing openers agree. */
function migrate(db: DatabaseSync, schema: readonly string[]): void {
  if (userVersion(db) >= schema.length) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    for (let version = userVersion(db); version < schema.length; version++) db.exec(schema[version]!);
    db.exec(`PRAGMA user_version = ${schema.length}`);
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function userVersion(db: DatabaseSync): number {
  return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}
