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
 * Writes a batch of events in one `BEGIN IMMEDIATE` transaction (a group commit): each run's events get
 * the run's next sequence numbers in batch order. Returns, per event, its seq, or RunNotFoundError for an
 * unknown run (the others are still written). A failure of the transaction itself throws, writing nothing.
 */
export function appendEvents(
  ctx: SqliteContext,
  batch: readonly EventToAppend[],
): (number | RunNotFoundError)[] {
  const now = ctx.now();
  const timestamp = now.toISOString();
  const byRun = new Map<string, number[]>();
  batch.forEach((event, index) => {
    const indexes = byRun.get(event.runId);
    if (indexes) indexes.push(index);
    else byRun.set(event.runId, [index]);
  });
  const results: (number | RunNotFoundError)[] = new Array(batch.length);
  immediate(ctx, () => {
    for (const [runId, indexes] of byRun) {
      const row = ctx.sql.bumpSeq.get({ id: runId, count: indexes.length, now: timestamp }) as
        | { last_seq: number }
        | undefined;
      if (!row) {
        for (const index of indexes) results[index] = new RunNotFoundError(runId);
        continue;
      }
      let seq = row.last_seq - indexes.length;
      for (const index of indexes) {
        const event = batch[index]!;
        seq++;
        ctx.sql.insertEvent.run(newId('evt', now.getTime()), runId, seq, event.type, event.data, timestamp);
        results[index] = seq;
      }
    }
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
