import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

// Each entry moves the schema one version up; PRAGMA user_version records where a database stands.
// Append only: a released entry never changes (exported for the migration tests).
export const migrations: string[] = [
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
  // The durable store contract (contract.ts): the full Run record, steps, checkpoints, approvals,
  // artifacts and the audit log. JSON fields are TEXT; runs made before it read as attempt 1, no usage.
  `ALTER TABLE runs ADD COLUMN workflow TEXT NOT NULL DEFAULT 'null';
   ALTER TABLE runs ADD COLUMN input TEXT NOT NULL DEFAULT '{}';
   ALTER TABLE runs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1;
   ALTER TABLE runs ADD COLUMN forked_from TEXT;
   ALTER TABLE runs ADD COLUMN lease_owner TEXT;
   ALTER TABLE runs ADD COLUMN lease_expires_at TEXT;
   ALTER TABLE runs ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE runs ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE runs ADD COLUMN total_tokens INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE runs ADD COLUMN cost_usd REAL NOT NULL DEFAULT 0;
   ALTER TABLE runs ADD COLUMN started_at TEXT;
   UPDATE runs SET started_at = created_at;
   CREATE INDEX runs_status ON runs (status, id);
   CREATE TABLE run_steps (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     node_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     status TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     detail TEXT NOT NULL,
     error TEXT,
     started_at TEXT NOT NULL,
     ended_at TEXT
   );
   CREATE INDEX run_steps_run ON run_steps (run_id, id);
   CREATE TABLE run_checkpoints (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     step_id TEXT,
     seq INTEGER NOT NULL,
     state TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX run_checkpoints_run ON run_checkpoints (run_id, id);
   CREATE TABLE run_approvals (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     step_id TEXT,
     node_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     prompt TEXT NOT NULL,
     options TEXT NOT NULL,
     detail TEXT NOT NULL,
     status TEXT NOT NULL,
     answer TEXT,
     decided_by TEXT,
     created_at TEXT NOT NULL,
     decided_at TEXT
   );
   CREATE INDEX run_approvals_run ON run_approvals (run_id, id);
   CREATE INDEX run_approvals_status ON run_approvals (status, id);
   CREATE TABLE run_artifacts (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     step_id TEXT,
     node_id TEXT,
     name TEXT NOT NULL,
     kind TEXT NOT NULL,
     media_type TEXT NOT NULL,
     size INTEGER NOT NULL,
     sha256 TEXT NOT NULL,
     uri TEXT NOT NULL,
     metadata TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX run_artifacts_run ON run_artifacts (run_id, id);
   CREATE TABLE audit_log (
     id TEXT PRIMARY KEY,
     timestamp TEXT NOT NULL,
     event TEXT NOT NULL,
     tool_name TEXT,
     args_summary TEXT NOT NULL,
     result_summary TEXT NOT NULL,
     session_id TEXT,
     run_id TEXT,
     workdir TEXT NOT NULL,
     success INTEGER NOT NULL
   );
   CREATE INDEX audit_log_event ON audit_log (event, id);
   CREATE INDEX audit_log_run ON audit_log (run_id, id);
   CREATE INDEX audit_log_timestamp ON audit_log (timestamp);`,
  // Messages users send to running runs (WebSocket `user_input`, `keel runs input`).
  `CREATE TABLE run_inputs (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     content TEXT NOT NULL,
     created_at TEXT NOT NULL,
     consumed_at TEXT
   );
   CREATE INDEX run_inputs_pending ON run_inputs (run_id, id) WHERE consumed_at IS NULL;`,
];

/** How long opening waits out other processes creating, converting or migrating the same file. */
const OPEN_DEADLINE_MS = 15_000;

/**
 * Opens (creating if needed) a SQLite database in WAL mode, migrated to the latest schema: the runtime's
 * own by default, or `schema` (each entry one migration, applied once in order, tracked by user_version),
 * for an embedder with tables of its own (the workbench).
 */
export function openSqlite(path: string, schema: readonly string[] = migrations): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
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
    throw error;
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
