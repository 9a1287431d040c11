import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

// Each entry moves the schema one version up; PRAGMA user_version records where a database stands.
const migrations: string[] = [
  `CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     title TEXT NOT NULL,
     model TEXT NOT NULL DEFAULT '',
     workdir TEXT NOT NULL DEFAULT '',
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX sessions_updated ON sessions (updated_at DESC);
   CREATE TABLE session_messages (
     session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     role TEXT NOT NULL,
     data TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (session_id, seq)
   );`,
  `CREATE TABLE runs (
     id TEXT PRIMARY KEY,
     status TEXT NOT NULL,
     session_id TEXT,
     workdir TEXT NOT NULL,
     prompt TEXT NOT NULL,
     error TEXT,
     result TEXT,
     last_seq INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     ended_at TEXT,
     heartbeat_at TEXT
   );
   CREATE INDEX runs_created ON runs (created_at DESC);
   CREATE TABLE run_events (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     type TEXT NOT NULL,
     data TEXT NOT NULL,
     created_at TEXT NOT NULL,
     UNIQUE (run_id, seq)
   );
   CREATE TABLE run_controls (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     kind TEXT NOT NULL,
     created_at TEXT NOT NULL,
     handled_at TEXT
   );
   CREATE INDEX run_controls_pending ON run_controls (run_id) WHERE handled_at IS NULL;`,
];

/** Opens (creating if needed) the single-machine SQLite database in WAL mode, migrated to the latest schema. */
export function openSqlite(path: string): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  // busy_timeout first: several processes may open and migrate the same new database at once.
  db.exec('PRAGMA busy_timeout = 5000;');
  // WAL with synchronous=NORMAL: commits survive a process crash and event appends stay cheap.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
  migrate(db);
  return db;
}

/** Brings the schema up to date; the write lock is taken before reading the version, so racing openers agree. */
function migrate(db: DatabaseSync): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    const { user_version: current } = db.prepare('PRAGMA user_version').get() as { user_version: number };
    for (let version = current; version < migrations.length; version++) db.exec(migrations[version]!);
    db.exec(`PRAGMA user_version = ${migrations.length}`);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
