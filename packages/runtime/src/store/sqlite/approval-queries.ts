import { InvalidStateError, RecordNotFoundError, RunNotFoundError } from '../../errors/index.ts';
import type { Approval, ApprovalDecision, ApprovalQuery, NewApproval } from '../contract.ts';
import { type SqliteContext, stamp } from './context.ts';
import { type Row, toApproval, toJson } from './rows.ts';

// Approvals a run waits on: tool and node approvals and questions.

export function createApproval(ctx: SqliteContext, input: NewApproval): Approval {
  const { now, id } = stamp(ctx, 'apr');
  const row = ctx.sql.insertApproval.get({
    id,
    run_id: input.run_id,
    step_id: input.step_id,
    node_id: input.node_id,
    kind: input.kind,
    prompt: input.prompt,
    options: toJson(input.options),
    detail: toJson(input.detail ?? {}),
    now,
  }) as Row | undefined;
  if (!row) throw new RunNotFoundError(input.run_id);
  return toApproval(row);
}

export function getApproval(ctx: SqliteContext, id: string): Approval {
  const row = ctx.sql.getApproval.get({ id }) as Row | undefined;
  if (!row) throw new RecordNotFoundError('APPROVAL_NOT_FOUND', 'Approval', id);
  return toApproval(row);
}

export function listApprovals(ctx: SqliteContext, query: ApprovalQuery): Approval[] {
  const rows = ctx.sql.listApprovals.all({
    run_id: query.run_id ?? null,
    status: query.status ?? null,
    limit: query.limit ?? 50,
  }) as Row[];
  return rows.map(toApproval);
}

export function decideApproval(ctx: SqliteContext, id: string, decision: ApprovalDecision): Approval {
  // Guarded on `pending`: of two racing deciders exactly one wins.
  const row = ctx.sql.decideApproval.get({
    id,
    status: decision.status,
    answer: decision.answer ?? null,
    decided_by: decision.decided_by ?? null,
    now: ctx.now().toISOString(),
  }) as Row | undefined;
  if (row) return toApproval(row);
  const approval = getApproval(ctx, id);
  throw new InvalidStateError(
    `Approval '${id}' is already ${approval.status}; only a pending approval can be decided.`,
    { approval_id: id, run_id: approval.run_id, status: approval.status, allowed: ['pending'] },
  );
}
