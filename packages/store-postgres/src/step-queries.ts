import type { ErrorObject } from '@keel/runtime/errors';
import {
  InvalidParamsError,
  InvalidStateError,
  RecordNotFoundError,
  RunNotFoundError,
} from '@keel/runtime/errors';
import { newId } from '@keel/runtime/store';
import type {
  Checkpoint,
  JsonObject,
  NewCheckpoint,
  NewStep,
  Step,
  StepStatus,
} from '@keel/runtime/store/contract';
import type { Database } from './database.ts';
import { json } from './database.ts';
import type { CheckpointRow, StepRow } from './rows.ts';
import { toCheckpoint, toStep } from './rows.ts';

// Steps and checkpoints: the run's progress, written by the worker that holds it.

/**
 * The attempt defaults to the run's own, so a retried run's steps say which execution they belong to; the
 * worker to the run's lease holder, the one executing it.
 */
export async function startStep(db: Database, input: NewStep): Promise<Step> {
  const row = await db.row<StepRow>(
    `INSERT INTO ${db.t.steps} (id, run_id, node_id, kind, status, attempt, worker_id, detail)
     SELECT $1, r.id, $3, $4, 'running', coalesce($5::integer, r.attempt), coalesce($7::text, r.lease_owner),
            $6::jsonb
     FROM ${db.t.runs} r WHERE r.id = $2
     RETURNING *`,
    [
      newId('stp'),
      input.run_id,
      input.node_id,
      input.kind,
      input.attempt ?? null,
      json(input.detail ?? {}),
      input.worker_id ?? null,
    ],
  );
  if (!row) throw new RunNotFoundError(input.run_id);
  return toStep(row);
}

export async function finishStep(
  db: Database,
  id: string,
  outcome: { status: Exclude<StepStatus, 'running'>; error?: ErrorObject | null; detail?: JsonObject },
): Promise<Step> {
  // The finishing detail is merged into the starting one, so neither side's facts are lost; the guard
  // in the UPDATE makes a finished step final even when two writers race.
  const row = await db.row<StepRow>(
    `UPDATE ${db.t.steps}
     SET status = $2, error = $3::jsonb, detail = detail || $4::jsonb,
         ended_at = CASE WHEN $2 = 'waiting' THEN NULL ELSE now() END
     WHERE id = $1 AND status IN ('running', 'waiting') RETURNING *`,
    [id, outcome.status, outcome.error ? json(outcome.error) : null, json(outcome.detail ?? {})],
  );
  if (row) return toStep(row);
  const found = await db.row<{ status: StepStatus }>(`SELECT status FROM ${db.t.steps} WHERE id = $1`, [id]);
  // The spec has no STEP_NOT_FOUND code; a step id only comes from the caller's own startStep.
  if (!found) throw new InvalidParamsError(`Step '${id}' does not exist.`, { step_id: id });
  throw new InvalidStateError(
    `Step '${id}' is ${found.status}; only a running or waiting step can be finished.`,
    { step_id: id, status: found.status, allowed: ['running', 'waiting'] },
  );
}

export async function listSteps(db: Database, runId: string): Promise<Step[]> {
  const rows = await db.rows<StepRow>(`SELECT * FROM ${db.t.steps} WHERE run_id = $1 ORDER BY ord`, [runId]);
  return rows.map(toStep);
}

export async function saveCheckpoint(db: Database, input: NewCheckpoint): Promise<Checkpoint> {
  const finish = input.finishStep === true && input.step_id !== null;
  // Reads last_seq in the same statement, so the checkpoint's cursor is the run's at that instant. With
  // `finishStep` the step's end is in the same statement too: one round trip, stored together or not at all.
  const row = await db.row<CheckpointRow>(
    `WITH finished AS (
       UPDATE ${db.t.steps} SET status = 'succeeded', error = NULL, ended_at = now()
       WHERE $5 AND id = $3 AND status IN ('running', 'waiting') RETURNING id
     )
     INSERT INTO ${db.t.checkpoints} (id, run_id, step_id, seq, state, whole)
     SELECT $1, r.id, $3, r.last_seq, $4::jsonb, $6 FROM ${db.t.runs} r
     WHERE r.id = $2 AND (NOT $5 OR EXISTS (SELECT 1 FROM finished))
     RETURNING *`,
    [newId('chk'), input.run_id, input.step_id, json(input.state), finish, input.whole === true],
  );
  if (row) return toCheckpoint(row);
  if (finish) {
    // The same errors as finishStep's; a step exists only with its run, so a missing run fails here too.
    const found = await db.row<{ status: StepStatus }>(`SELECT status FROM ${db.t.steps} WHERE id = $1`, [
      input.step_id,
    ]);
    if (!found)
      throw new InvalidParamsError(`Step '${input.step_id}' does not exist.`, { step_id: input.step_id });
    if (found.status !== 'running' && found.status !== 'waiting') {
      throw new InvalidStateError(
        `Step '${input.step_id}' is ${found.status}; only a running or waiting step can be finished.`,
        { step_id: input.step_id, status: found.status, allowed: ['running', 'waiting'] },
      );
    }
  }
  throw new RunNotFoundError(input.run_id);
}

export async function getCheckpoint(db: Database, id: string): Promise<Checkpoint> {
  const row = await db.row<CheckpointRow>(`SELECT * FROM ${db.t.checkpoints} WHERE id = $1`, [id]);
  if (!row) throw new RecordNotFoundError('CHECKPOINT_NOT_FOUND', 'Checkpoint', id);
  return toCheckpoint(row);
}

export async function latestCheckpoint(db: Database, runId: string): Promise<Checkpoint | null> {
  const row = await db.row<CheckpointRow>(
    `SELECT * FROM ${db.t.checkpoints} WHERE run_id = $1 ORDER BY ord DESC LIMIT 1`,
    [runId],
  );
  return row ? toCheckpoint(row) : null;
}

export async function listCheckpoints(db: Database, runId: string): Promise<Checkpoint[]> {
  const rows = await db.rows<CheckpointRow>(
    `SELECT * FROM ${db.t.checkpoints} WHERE run_id = $1 ORDER BY ord`,
    [runId],
  );
  return rows.map(toCheckpoint);
}

export async function checkpointChain(db: Database, runId: string, upTo?: string): Promise<Checkpoint[]> {
  const rows = await db.rows<CheckpointRow>(
    `WITH last AS (
       SELECT ord FROM ${db.t.checkpoints} WHERE run_id = $1 AND ($2::text IS NULL OR id = $2)
       ORDER BY ord DESC LIMIT 1
     )
     SELECT c.* FROM ${db.t.checkpoints} c, last
     WHERE c.run_id = $1 AND c.ord <= last.ord
       AND c.ord >= coalesce((SELECT max(ord) FROM ${db.t.checkpoints}
                              WHERE run_id = $1 AND whole AND ord <= last.ord), 0)
     ORDER BY c.ord`,
    [runId, upTo ?? null],
  );
  // A chain ends with `upTo` itself: none means it is not a checkpoint of this run.
  if (upTo !== undefined && rows.length === 0) {
    throw new RecordNotFoundError('CHECKPOINT_NOT_FOUND', 'Checkpoint', upTo);
  }
  return rows.map(toCheckpoint);
}
