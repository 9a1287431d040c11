import { newId } from '@keel/runtime/store';
import type { UserInput } from '@keel/runtime/store/contract';
import { finishedStatuses } from '@keel/runtime/store/contract';
import type { Database } from './database.ts';
import { notWhileEnded } from './event-queries.ts';
import { getRun } from './run-queries.ts';

interface InputRow {
  id: string;
  run_id: string;
  content: string;
  created_at: Date;
  consumed_at: Date | null;
}

function toInput(row: InputRow): UserInput {
  return {
    id: row.id,
    run_id: row.run_id,
    content: row.content,
    created_at: row.created_at.toISOString(),
    consumed_at: row.consumed_at?.toISOString() ?? null,
  };
}

export async function addUserInput(db: Database, runId: string, content: string): Promise<UserInput> {
  // The insert selects the run only while it has not ended, so the check and the write are one step.
  const row = await db.row<InputRow>(
    `INSERT INTO ${db.t.inputs} (id, run_id, content)
     SELECT $1, id, $3 FROM ${db.t.runs} WHERE id = $2 AND status <> ALL($4::text[])
     RETURNING id, run_id, content, created_at, consumed_at`,
    [newId('inp'), runId, content, finishedStatuses],
  );
  if (row) return toInput(row);
  throw await notWhileEnded(db, runId, 'user input');
}

export async function pendingUserInputs(db: Database, runId: string): Promise<UserInput[]> {
  const rows = await db.rows<InputRow>(
    `SELECT id, run_id, content, created_at, consumed_at FROM ${db.t.inputs}
     WHERE run_id = $1 AND consumed_at IS NULL ORDER BY ord`,
    [runId],
  );
  if (rows.length === 0) await getRun(db, runId);
  return rows.map(toInput);
}

export async function consumeUserInputs(db: Database, runId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.rows(
    `UPDATE ${db.t.inputs} SET consumed_at = now()
     WHERE run_id = $1 AND consumed_at IS NULL AND id = ANY($2::text[])`,
    [runId, ids],
  );
}
