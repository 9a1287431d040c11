import { StoreError } from './kinds.ts';

/** Why a store could not do its work, for people and for code (`details.reason` of the STORE_ERROR). */
export type StoreFaultReason =
  | 'disk_full'
  | 'read_only'
  | 'locked'
  | 'cannot_open'
  | 'corrupt'
  | 'io_error'
  | 'permission_denied';

/** A recognised disk or database fault: its reason, the low-level code, and what the user can do. */
export interface StoreFault {
  reason: StoreFaultReason;
  /** `SQLITE_FULL`, `SQLITE_READONLY`, `SQLITE_BUSY`, … for SQLite; `ENOSPC`, `EROFS`, … for files. */
  code: string;
  /** One sentence: what happened and what to do about it. */
  explanation: string;
}

const explanations: Record<StoreFaultReason, string> = {
  disk_full: 'the disk is full. Nothing was written; free some space, then try again.',
  read_only:
    'the database or its directory is read-only. Nothing was written; make them writable by this process.',
  locked:
    'another process holds the database lock and kept it longer than this process waits (the busy timeout). Nothing was written; try again when that process has finished.',
  cannot_open:
    'the database file cannot be opened. Check that its directory exists and is readable and writable by this process.',
  corrupt: 'the database file is damaged. Restore it from a backup or move it aside.',
  io_error: 'the disk reported an input/output error. Check the disk, then try again.',
  permission_denied:
    'the operating system denied access. Check the permissions of the file and its directory.',
};

// SQLite's primary result codes (the low byte of an extended code) that are faults of the disk or the file.
const sqliteCodes: Record<number, [string, StoreFaultReason]> = {
  3: ['SQLITE_PERM', 'permission_denied'],
  5: ['SQLITE_BUSY', 'locked'],
  6: ['SQLITE_LOCKED', 'locked'],
  8: ['SQLITE_READONLY', 'read_only'],
  10: ['SQLITE_IOERR', 'io_error'],
  11: ['SQLITE_CORRUPT', 'corrupt'],
  13: ['SQLITE_FULL', 'disk_full'],
  14: ['SQLITE_CANTOPEN', 'cannot_open'],
  26: ['SQLITE_NOTADB', 'corrupt'],
};

// Node's file-system error codes for the same faults.
const errnoCodes: Record<string, StoreFaultReason> = {
  ENOSPC: 'disk_full',
  EDQUOT: 'disk_full',
  EFBIG: 'disk_full',
  EROFS: 'read_only',
  EACCES: 'permission_denied',
  EPERM: 'permission_denied',
  EIO: 'io_error',
};

/**
 * The disk or database fault behind an error from node:sqlite (its `errcode`) or node:fs (its `code`),
 * or undefined for anything else (a constraint, a bug): those are not the disk's fault and keep their
 * own message.
 */
export function storeFaultOf(error: unknown): StoreFault | undefined {
  const { errcode, code } = (error ?? {}) as { errcode?: unknown; code?: unknown };
  if (typeof errcode === 'number') {
    const known = sqliteCodes[errcode & 0xff];
    return known ? { code: known[0], reason: known[1], explanation: explanations[known[1]] } : undefined;
  }
  if (typeof code === 'string' && code in errnoCodes) {
    const reason = errnoCodes[code]!;
    return { code, reason, explanation: explanations[reason] };
  }
  return undefined;
}

/**
 * A raw store failure as a STORE_ERROR whose message says what happened in words (`<what>: the disk is
 * full. …`) and whose details carry `reason` and `code`. `what` names the operation or the file.
 */
export function toStoreError(
  error: unknown,
  what: string,
  details: Record<string, unknown> = {},
): StoreError {
  const fault = storeFaultOf(error);
  if (fault) {
    return new StoreError(
      `${what}: ${fault.explanation} (${fault.code})`,
      { ...details, reason: fault.reason, code: fault.code },
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new StoreError(`${what}: ${message}`, details, { cause: error });
}
