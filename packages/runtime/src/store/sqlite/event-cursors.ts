import type { DatabaseSync } from 'node:sqlite';
import type { SqliteContext } from './context.ts';

/** Where a run's events stand: its newest segment (null before its first event) and its last seq. */
export interface EventCursor {
  seg: number | null;
  seq: number;
}

/** What a group commit works from: the table's last rid and the cursors of the batch's runs (copies). */
export interface CursorState {
  /** data_version read under the batch's write lock. */
  version: number;
  lastRid: number;
  runs: Map<string, EventCursor>;
}

/**
 * The cursors as this connection last wrote them, so a batch need not read them back: reading where 100
 * runs stand was as costly as inserting their events (profiled). They hold while no other connection (in
 * this process or another) committed since: `PRAGMA data_version`, read under the write lock, changes
 * exactly then, and the cache is dropped and read again. Kept per connection, whichever stores share it.
 */
interface CursorCache {
  /** data_version when the cache was last known to be right; -1 when it is not. */
  version: number;
  lastRid: number;
  runs: Map<string, EventCursor>;
}

/** Runs remembered per connection before the cache starts again (ended runs are never written again). */
const maxCachedRuns = 10_000;

const caches = new WeakMap<DatabaseSync, CursorCache>();

type CursorRow = { id: string; seg: number | null; last_seq: number; last_rid: number };

/**
 * The cursors of `runIds` that exist, and the last rid: from the cache where it holds, else from the
 * database. Call inside the batch's write transaction; unknown runs are missing from the map.
 */
export function readCursors(ctx: SqliteContext, runIds: readonly string[]): CursorState {
  const cache = cacheOf(ctx.db);
  const { data_version: version } = ctx.sql.dataVersion.get() as { data_version: number };
  if (version !== cache.version) {
    cache.runs.clear();
    cache.version = -1;
  }
  const runs = new Map<string, EventCursor>();
  const missing: string[] = [];
  for (const runId of runIds) {
    const cursor = cache.runs.get(runId);
    if (cursor) runs.set(runId, { seg: cursor.seg, seq: cursor.seq });
    else missing.push(runId);
  }
  let lastRid = cache.version === -1 ? undefined : cache.lastRid;
  if (missing.length > 0) {
    const rows = ctx.sql.eventCursors.all({ ids: JSON.stringify(missing) }) as CursorRow[];
    for (const row of rows) runs.set(row.id, { seg: row.seg, seq: row.last_seq });
    lastRid ??= rows[0]?.last_rid;
  }
  // No rid read and none cached: no run of the batch exists, so nothing is inserted.
  return { version, lastRid: lastRid ?? 0, runs };
}

/** After the batch committed: its cursors are what the database now holds. */
export function keepCursors(ctx: SqliteContext, state: CursorState): void {
  if (state.runs.size === 0) return;
  const cache = cacheOf(ctx.db);
  if (cache.runs.size + state.runs.size > maxCachedRuns) cache.runs.clear();
  for (const [runId, cursor] of state.runs) cache.runs.set(runId, cursor);
  cache.lastRid = state.lastRid;
  // The version read under the lock, not now: this connection's own commit leaves it as it was, and one
  // read now could already include another connection's commit made since.
  cache.version = state.version;
}

/** After a batch failed: what it read may be rolled back, so nothing is assumed. */
export function forgetCursors(ctx: SqliteContext): void {
  const cache = cacheOf(ctx.db);
  cache.runs.clear();
  cache.version = -1;
}

function cacheOf(db: DatabaseSync): CursorCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { version: -1, lastRid: 0, runs: new Map() };
    caches.set(db, cache);
  }
  return cache;
}
