import { InvalidStateError, RecordNotFoundError } from '@keel/runtime/errors';
import { newId } from '@keel/runtime/store';
import type { Approval, ApprovalDecision, ApprovalQuery, NewApproval } from '@keel/runtime/store/contract';
import type { Database } from './database.ts';
import { json } from './database.ts';
import type { ApprovalRow } from './rows.ts';
import { toApproval } from './rows.ts';

export async function createApproval(db: Database, input: NewApproval): Promise<Approval> {
  const row = await db.row<ApprovalRow>(
    `INSERT INTO ${db.t.approvals} (id, run_id, step_id, node_id, kind, prompt, options, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb) RETURNING *`,
    [
      newId('apr'),
      input.run_id,
      input.step_id,
      input.node_id,
      input.kind,
      input.prompt,
      json(input.options),
      json(input.detail ?? {}),
    ],
    { runId: input.run_id },
  );
  return toApproval(row!);
}

export async function getApproval(db: Database, id: string): Promise<Approval> {
  const row = await db.row<ApprovalRow>(`SELECT * FROM ${db.t.approvals} WHERE id = $1`, [id]);
  if (!row) throw new RecordNotFoundError('APPROVAL_NOT_FOUND', 'Approval', id);
  return toApproval(row);
}

export async function listApprovals(db: Database, query: ApprovalQuery = {}): Promise<Approval[]> {
  const rows = await db.rows<ApprovalRow>(
    `SELECT * FROM ${db.t.approvals}
     WHERE ($1::text IS NULL OR run_id = $1) AND ($2::text IS NULL OR status = $2)
     ORDER BY ord DESC LIMIT $3`,
    [query.run_id ?? null, query.status ?? null, limitOf(query.limit, 50)],
  );
  return rows.map(toApproval);
}

/** Only a pending approval can be decided; the guard sits in the UPDATE so two deciders cannot both win. */
export async function decideApproval(
  db: Database,
  id: string,
  decision: ApprovalDecision,
): Promise<Approval> {
  const row = await db.row<ApprovalRow>(
    `UPDATE ${db.t.approvals}
     SET status = $2, answer = $3, decided_by = $4, decided_at = now()
     WHERE id = $1 AND status = 'pending' RETURNING *`,
    [id, decision.status, decision.answer ?? null, decision.decided_by ?? null],
  );
  if (row) return toApproval(row);
  const current = await getApproval(db, id);
  throw new InvalidStateError(
    `Approval '${id}' is already ${current.status}; only a pending approval can be decided.`,
    { approval_id: id, run_id: current.run_id, status: current.status, allowed: ['pending'] },
  );
}

/** A page size: a whole number from 0, or the default. */
export function limitOf(limit: number | undefined, fallback: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(0, Math.floor(limit));
}
