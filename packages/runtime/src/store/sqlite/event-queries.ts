import { RunNotFoundError } from '../../errors/index.ts';
import type { ControlKind, RunEventRecord, RunEventText } from '../contract.ts';
import { newId } from '../ids.ts';
import { immediate, type SqliteContext, stamp } from './context.ts';
import { type CursorState, forgetCursors, keepCursors, readCursors } from './event-cursors.ts';
import { type Row, toEventRecord } from './rows.ts';
import { notWhileEnded } from './run-queries.ts';

// A run's events (gapless seq) and the control requests any process may write for it.

/** One event waiting to be written: its run, type and JSON text (serialised once, by the caller). */
export interface EventToAppend {
  runId: string;
  type: string;
  data: string;
}

/**
 * Events per segment, across all runs: a run starts a new segment once this many events (of any run) were
 * stored since its current one began. The segments being written then span about this many entries of the
 * (seg, seq) index, a few pages that every commit rewrites whatever the number of runs; a run's page of
 * 1000 events read back touches 1000 × runs ÷ this many segments (about 25 with 100 runs at once).
 */
export const eventsPerSegment = 4096;

/**
 * Writes a batch of events in one `BEGIN IMMEDIATE` transaction (a group commit), whichever runs they belong
 * to: where every run of the batch stands is read under the write lock (event-cursors.ts: one statement, or
 * the cursors this connection wrote last while nobody else committed since), then the events are inserted
 * in batch order, each run's taking its next numbers; writers in other processes are ordered by the lock.
 * Returns, per event, its seq, or RunNotFoundError for an unknown run (the others are still written). A
 * failure of the transaction itself throws, writing nothing.
 */
export function appendEvents(
  ctx: SqliteContext,
  batch: readonly EventToAppend[],
): (number | RunNotFoundError)[] {
  const now = ctx.now();
  const timestamp = now.toISOString();
  const time = now.getTime();
  const runIds = [...new Set(batch.map((event) => event.runId))];
  const results: (number | RunNotFoundError)[] = new Array(batch.length);
  let state: CursorState;
  try {
    state = immediate(ctx, () => {
      const read = readCursors(ctx, runIds);
      batch.forEach((event, index) => {
        const run = read.runs.get(event.runId);
        if (!run) {
          results[index] = new RunNotFoundError(event.runId);
          return;
        }
        const rid = ++read.lastRid;
        const seq = ++run.seq;
        if (run.seg === null || rid - run.seg >= eventsPerSegment) {
          run.seg = rid;
          ctx.sql.insertSegment.run(event.runId, seq, rid);
        }
        ctx.sql.insertEvent.run(
          rid,
          run.seg,
          seq,
          newId('evt', time),
          event.runId,
          event.type,
          event.data,
          timestamp,
        );
        results[index] = seq;
      });
      return read;
    });
  } catch (error) {
    forgetCursors(ctx);
    throw error;
  }
  keepCursors(ctx, state);
  return results;
}

export function listEvents(
  ctx: SqliteContext,
  runId: string,
  options: { after?: number; limit?: number },
): RunEventRecord[] {
  const rows = ctx.sql.listEvents.all({
    run_id: runId,
    after: options.after ?? 0,
    limit: options.limit ?? 1000,
  }) as Row[];
  // Only an empty page needs the extra look-up that tells "caught up" from "no such run".
  if (rows.length === 0 && !ctx.sql.runExists.get({ id: runId })) throw new RunNotFoundError(runId);
  return rows.map(toEventRecord);
}

/** `listEvents` without parsing: each event's JSON text as stored (what replays send on as it is). */
export function listEventTexts(
  ctx: SqliteContext,
  runId: string,
  options: { after?: number; limit?: number },
): RunEventText[] {
  const rows = ctx.sql.listEventTexts.all({
    run_id: runId,
    after: options.after ?? 0,
    limit: options.limit ?? 1000,
  }) as { seq: number; type: string; data: string }[];
  if (rows.length === 0 && !ctx.sql.runExists.get({ id: runId })) throw new RunNotFoundError(runId);
  return rows.map((row) => ({ seq: row.seq, type: row.type, json: row.data }));
}

export function requestControl(ctx: SqliteContext, runId: string, kind: ControlKind): string {
  const { now, id } = stamp(ctx, 'ctl');
  // The insert selects the run only while it has not ended, so the check and the write are one step.
  if (ctx.sql.insertControl.get({ id, run_id: runId, kind, now })) return id;
  throw notWhileEnded(ctx, runId, kind);
}

export function takeControls(ctx: SqliteContext, runId: string): ControlKind[] {
  const rows = ctx.sql.takeControls.all({ run_id: runId, now: ctx.now().toISOString() }) as {
    id: string;
    kind: ControlKind;
  }[];
  // RETURNING has no defined order; ids sort by time.
  return rows.sort((a, b) => (a.id < b.id ? -1 : 1)).map((row) => row.kind);
}
