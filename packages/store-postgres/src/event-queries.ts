import { InvalidStateError, RunNotFoundError } from '@keel/runtime/errors';
import { newId } from '@keel/runtime/store';
import type { ControlKind, JsonObject, RunEventRecord } from '@keel/runtime/store/contract';
import { finishedStatuses, runStatuses } from '@keel/runtime/store/contract';
import type { Database } from './database.ts';
import { channel, json } from './database.ts';
import type { EventRow } from './rows.ts';
import { toEvent } from './rows.ts';
import { getRun } from './run-queries.ts';

/**
 * The hot path, in one statement and one round trip: bumping `last_seq` takes the run's row lock, which
 * serialises concurrent appenders, so seq stays gapless; the insert and the NOTIFY commit with it.
 * A prepared statement skips parsing and planning after each connection's first append.
 */
export async function appendEvent(
  db: Database,
  runId: string,
  event: JsonObject & { type: string },
): Promise<number> {
  const row = await db.row<{ seq: number }>(
    `WITH bumped AS (
       UPDATE ${db.t.runs} SET last_seq = last_seq + 1, updated_at = now() WHERE id = $1 RETURNING id, last_seq
     ), inserted AS (
       INSERT INTO ${db.t.events} (run_id, seq, id, type, event)
       SELECT id, last_seq, $2, $3, $4::jsonb FROM bumped RETURNING seq
     )
     SELECT seq, pg_notify('${channel}', $1) FROM inserted`,
    [runId, newId('evt'), event.type, json(event)],
    { name: `keel_append_event_${db.t.schema}` },
  );
  if (!row) throw new RunNotFoundError(runId);
  return row.seq;
}

export async function listEvents(
  db: Database,
  runId: string,
  options: { after?: number; limit?: number } = {},
): Promise<RunEventRecord[]> {
  const rows = await db.rows<EventRow>(
    `SELECT run_id, seq, id, type, event, created_at FROM ${db.t.events}
     WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [runId, Math.max(0, Math.floor(options.after ?? 0)), Math.max(0, Math.floor(options.limit ?? 1000))],
    { name: `keel_list_events_${db.t.schema}` },
  );
  // An empty page is normal for a caught-up reader; only then is it worth checking that the run exists.
  if (rows.length === 0) await getRun(db, runId);
  return rows.map(toEvent);
}

const openStatuses = runStatuses.filter((status) => !finishedStatuses.includes(status));

/** RUN_NOT_FOUND for an unknown run, else INVALID_STATE: `what` applies only to a run that has not ended. */
export async function notWhileEnded(db: Database, runId: string, what: string): Promise<InvalidStateError> {
  const run = await getRun(db, runId);
  return new InvalidStateError(
    `Run '${runId}' is ${run.status}; ${what} applies only to a run that has not ended.`,
    {
      run_id: runId,
      status: run.status,
      allowed: openStatuses,
    },
  );
}

/** Refused once the run has ended; notifies so a worker subscribed to the run acts without polling. */
export async function requestControl(db: Database, runId: string, kind: ControlKind): Promise<string> {
  const row = await db.row<{ id: string }>(
    `WITH added AS (
       INSERT INTO ${db.t.controls} (id, run_id, kind)
       SELECT $1, id, $3 FROM ${db.t.runs} WHERE id = $2 AND status <> ALL($4::text[])
       RETURNING id, run_id
     )
     SELECT id, pg_notify('${channel}', run_id) FROM added`,
    [newId('ctl'), runId, kind, finishedStatuses],
  );
  if (row) return row.id;
  throw await notWhileEnded(db, runId, kind);
}

/** Row locks make two takers split the requests: each is handed out once. */
export async function takeControls(db: Database, runId: string): Promise<ControlKind[]> {
  const rows = await db.rows<{ kind: ControlKind; ord: string }>(
    `UPDATE ${db.t.controls} SET handled_at = now()
     WHERE run_id = $1 AND handled_at IS NULL RETURNING kind, ord`,
    [runId],
  );
  return rows.sort((a, b) => Number(a.ord) - Number(b.ord)).map((row) => row.kind);
}
