// Disk and database faults for tests: a small tmpfs to fill up or make read-only (Linux, root), and a
// second process holding a SQLite database's lock.
export type { HeldLock } from './database-lock.ts';
export { holdDatabaseLock, lockedStoreError, writeWhileLocked } from './database-lock.ts';
export type { SmallDisk } from './small-disk.ts';
export { mountSmallDisk, smallDiskUnavailable } from './small-disk.ts';
