import { DatabaseSync } from 'node:sqlite';
import { expect } from 'vitest';
import { KeelError } from '../../../src/index.ts';

/** Awaits `work` and returns what it threw, failing the test when it did not throw. */
export async function failureOf(work: () => unknown): Promise<KeelError> {
  let caught: unknown;
  try {
    await work();
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected the operation to fail').toBeDefined();
  expect(KeelError.is(caught), `a KeelError, not ${String(caught)}`).toBe(true);
  return caught as KeelError;
}

/** What a SQLite file says of itself, through its own connection: PRAGMA integrity_check. */
export function integrityOf(path: string): string {
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const rows = db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/**
 * Moves the WAL's frames into the database and cuts the -wal file to zero bytes, so that the next write
 * must grow the file. On a full disk that write then fails for sure; without this it may fit in WAL space
 * allocated earlier (and succeed, which is right, but not the fault under test).
 */
export function truncateWal(path: string): void {
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const { busy } = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number };
    if (busy) throw new Error(`The WAL of ${path} could not be truncated: a reader holds it.`);
  } finally {
    db.close();
  }
}

/** Sequence numbers 1…n with no gap or repeat. */
export function expectGapless(seqs: number[]): void {
  expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => index + 1));
}
