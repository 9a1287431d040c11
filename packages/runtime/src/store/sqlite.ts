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
];

/** Opens (creating if needed) the single-machine SQLite database in WAL mode, migrated to the latest schema. */
export function openSqlite(path: string): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number };
  for (let version = row.user_version; version < migrations.length; version++) {
    db.exec('BEGIN');
    try {
      db.exec(migrations[version]!);
      db.exec(`PRAGMA user_version = ${version + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
  return db;
}
