import { RunNotFoundError } from '../../errors/index.ts';
import type { ControlKind, JsonObject, RunEventRecord } from '../contract.ts';
import { newId } from '../ids.ts';
import { immediate, type SqliteContext, stamp } from './context.ts';
import { type Row, toEventRecord } from './rows.ts';
import { notWhileEnded } from './run-queries.ts';

// A run's events (gapless seq) and the control requests any process may write for it.

export function appendEvent(ctx: SqliteContext, runId: string, event: JsonObject & { type: string }): number {
  const now = ctx.now();
  const timestamp = now.toISOString();
  const data = JSON.stringify(event);
  return immediate(ctx, () => {
    const row = ctx.sql.bumpSeq.get({ id: runId, now: timestamp }) as { last_seq: number } | undefined;
    if (!row) throw new RunNotFoundError(runId);
    ctx.sql.insertEvent.run({
      id: newId('evt', now.getTime()),
      run_id: runId,
      seq: row.last_seq,
      type: event.type,
      data,
      now: timestamp,
    });
    return row.last_seq;
  });
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
