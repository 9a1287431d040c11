import { spawn } from 'node:child_process';

/** Another process holding a SQLite database's write lock until released. */
export interface HeldLock {
  /** Rolls the other process's transaction back, releases the lock and waits for the process to end. */
  release(): Promise<void>;
}

// The other process: opens the database, takes the lock with BEGIN EXCLUSIVE (in WAL mode readers go on,
// writers wait), makes an uncommitted change, says "locked", and rolls back when stdin sends a line.
const holder = `
import { DatabaseSync } from 'node:sqlite';
const db = new DatabaseSync(process.argv[1]);
db.exec('PRAGMA busy_timeout = 10000');
db.exec('BEGIN EXCLUSIVE');
db.exec('CREATE TABLE keel_test_lock_holder (x)');
process.stdout.write('locked\\n');
process.stdin.once('data', () => {
  db.exec('ROLLBACK');
  db.close();
  process.exit(0);
});
`;

/**
 * Starts a separate process that holds an exclusive lock on the SQLite database at `path` (which must
 * exist) and resolves once it holds it. Needs Node with node:sqlite (22.13+) as `process.execPath`.
 */
export async function holdDatabaseLock(path: string, timeoutMs = 10_000): Promise<HeldLock> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', holder, path], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`The lock holder did not take the lock of ${path} in ${timeoutMs} ms. ${output}`));
    }, timeoutMs);
    child.stdout.on('data', (chunk) => {
      if (!String(chunk).includes('locked')) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The lock holder ended (exit ${code}) before taking the lock of ${path}. ${output}`));
    });
  });
  return {
    async release() {
      if (child.exitCode === null) child.stdin.write('\n');
      await exited;
    },
  };
}

/** What a service answers to a write while another process holds its database's lock (after the busy wait). */
export const lockedStoreError = {
  code: 'STORE_ERROR',
  details: { reason: 'locked', code: 'SQLITE_BUSY' },
} as const;

/**
 * Holds the database's lock, sends `write` and times it, runs `meanwhile` (reads that must still work)
 * while the lock is still held, then releases it. Answers the write's answer and how long it waited.
 */
export async function writeWhileLocked<Answer>(
  database: string,
  write: () => Promise<Answer>,
  meanwhile: () => Promise<void> = async () => {},
): Promise<{ answer: Answer; waitedMs: number }> {
  const lock = await holdDatabaseLock(database);
  try {
    const started = Date.now();
    const answer = await write();
    const waitedMs = Date.now() - started;
    await meanwhile();
    return { answer, waitedMs };
  } finally {
    await lock.release();
  }
}
