import { RunNotFoundError } from '../../errors/index.ts';
import type { ControlKind, RunEventRecord, RunEventText } from '../contract.ts';
import { newId } from '../ids.ts';
import { immediate, type SqliteContext, stamp } from './context.ts';
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
 * Writes a batch of events in one `BEGIN IMMEDIATE` transaction (a group commit), whichever runs they belong
 * to: one statement reserves every run's sequence numbers, then the events are inserted in batch order, each
 * run's taking its next numbers. Returns, per event, its seq, or RunNotFoundError for an unknown run (the
 * others are still written). A failure of the transaction itself throws, writing nothing.
 */
export function appendEvents(
  ctx: SqliteContext,
  batch: readonly EventToAppend[],
): (number | RunNotFoundError)[] {
  const now = ctx.now();
  const timestamp = now.toISOString();
  const time = now.getTime();
  const counts = new Map<string, number>();
  for (const event of batch) counts.set(event.runId, (counts.get(event.runId) ?? 0) + 1);
  const results: (number | RunNotFoundError)[] = new Array(batch.length);
  immediate(ctx, () => {
    const reserved = ctx.sql.bumpSeqs.all({
      now: timestamp,
      counts: JSON.stringify(Object.fromEntries(counts)),
    }) as { id: string; last_seq: number }[];
    // Each run's next number: the first of those just reserved for it.
    const next = new Map<string, number>();
    for (const row of reserved) next.set(row.id, row.last_seq - counts.get(row.id)! + 1);
    batch.forEach((event, index) => {
      const seq = next.get(event.runId);
      if (seq === undefined) {
        results[index] = new RunNotFoundError(event.runId);
        return;
      }
      next.set(event.runId, seq + 1);
      ctx.sql.insertEvent.run(newId('evt', time), event.runId, seq, event.type, event.data, timestamp);
      results[index] = seq;
    });
  });
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
