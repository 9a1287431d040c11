import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { KeelError, storeFaultOf, toStoreError } from '../../errors/index.ts';

/**
 * What a failed SQLite operation throws: a KeelError as it is, and a raw SQLite failure as a STORE_ERROR
 * naming the database file and saying in words what went wrong (the disk is full, the file is read-only,
 * another process holds the lock), with `details.reason` and `details.code` (SQLITE_FULL, …).
 */
export function sqliteFailure(db: DatabaseSync, error: unknown): KeelError {
  if (KeelError.is(error)) return error;
  const path = locationOf(db);
  return path
    ? toStoreError(error, `The SQLite store ${path} failed`, { path })
    : toStoreError(error, 'The SQLite store failed');
}

/**
 * Why the database at `path` could not be opened, as a STORE_ERROR. SQLite says only "unable to open
 * database file" (SQLITE_CANTOPEN) when its directory is on a read-only file system (WAL needs to create
 * the -wal and -shm files beside it, even to read), so the directory is asked for the real reason.
 */
export function openFailure(path: string, error: unknown): KeelError {
  if (KeelError.is(error)) return error;
  const what = `Could not open the database ${path}`;
  const fault = storeFaultOf(error);
  if (path !== ':memory:' && (fault?.reason === 'cannot_open' || fault?.reason === 'read_only')) {
    try {
      accessSync(dirname(path), constants.W_OK);
    } catch (reason) {
      if (storeFaultOf(reason)) return toStoreError(reason, what, { path });
    }
  }
  return toStoreError(error, what, { path });
}

/** The database file, when the connection is open on one (`location()` is Node 24's). */
function locationOf(db: DatabaseSync): string | undefined {
  try {
    const location = (db as { location?: () => string | null }).location?.();
    return location || undefined;
  } catch {
    return undefined;
  }
}
