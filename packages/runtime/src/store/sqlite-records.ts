import type { ErrorObject } from '../errors/index.ts';
import {
  InvalidParamsError,
  InvalidStateError,
  RecordNotFoundError,
  RunNotFoundError,
} from '../errors/index.ts';
import type {
  Approval,
  ApprovalDecision,
  ApprovalQuery,
  Artifact,
  AuditEntry,
  AuditQuery,
  Checkpoint,
  JsonObject,
  JsonValue,
  NewApproval,
  NewArtifact,
  NewAuditEntry,
  NewStep,
  Step,
  StepStatus,
} from './contract.ts';
import { immediate, type SqliteContext, stamp } from './sqlite-context.ts';
import {
  type Row,
  toApproval,
  toArtifact,
  toAuditEntry,
  toCheckpoint,
  toJson,
  toJsonOrNull,
  toStep,
} from './sqlite-rows.ts';

// The records that hang off a run on SQLite: steps, checkpoints, approvals, artifacts, and the audit log.
// Inserts select from `runs`, so the run's existence is checked by the statement that writes.

export function startStep(ctx: SqliteContext, input: NewStep): Step {
  const { now, id } = stamp(ctx, 'stp');
  const row = ctx.sql.insertStep.get({
    id,
    run_id: input.run_id,
    node_id: input.node_id,
    kind: input.kind,
    attempt: input.attempt ?? null,
    detail: toJson(input.detail ?? {}),
    now,
  }) as Row | undefined;
  if (!row) throw new RunNotFoundError(input.run_id);
  return toStep(row);
}

export function finishStep(
  ctx: SqliteContext,
  id: string,
  outcome: { status: Exclude<StepStatus, 'running'>; error?: ErrorObject | null; detail?: JsonObject },
): Step {
  return immediate(ctx, () => {
    const found = ctx.sql.getStep.get({ id }) as Row | undefined;
    // The spec has no STEP_NOT_FOUND code; a step id only comes from the caller's own startStep.
    if (!found) throw new InvalidParamsError(`Step '${id}' does not exist.`, { step_id: id });
    const step = toStep(found);
    if (step.status !== 'running' && step.status !== 'waiting') {
      throw new InvalidStateError(
        `Step '${id}' is ${step.status}; only a running or waiting step can be finished.`,
        {
          step_id: id,
          status: step.status,
          allowed: ['running', 'waiting'],
        },
      );
    }
    const row = ctx.sql.finishStep.get({
      id,
      status: outcome.status,
      error: toJsonOrNull(outcome.error),
      detail: toJson({ ...step.detail, ...outcome.detail }),
      now: ctx.now().toISOString(),
    }) as Row;
    return toStep(row);
  });
}

export function listSteps(ctx: SqliteContext, runId: string): Step[] {
  return (ctx.sql.listSteps.all({ run_id: runId }) as Row[]).map(toStep);
}

export function saveCheckpoint(
  ctx: SqliteContext,
  input: { run_id: string; step_id: string | null; state: JsonValue },
): Checkpoint {
  const { now, id } = stamp(ctx, 'chk');
  const row = ctx.sql.insertCheckpoint.get({
    id,
    run_id: input.run_id,
    step_id: input.step_id,
    state: toJson(input.state),
    now,
  }) as Row | undefined;
  if (!row) throw new RunNotFoundError(input.run_id);
  return toCheckpoint(row);
}

export function getCheckpoint(ctx: SqliteContext, id: string): Checkpoint {
  const row = ctx.sql.getCheckpoint.get({ id }) as Row | undefined;
  if (!row) throw new RecordNotFoundError('CHECKPOINT_NOT_FOUND', 'Checkpoint', id);
  return toCheckpoint(row);
}

export function latestCheckpoint(ctx: SqliteContext, runId: string): Checkpoint | null {
  const row = ctx.sql.latestCheckpoint.get({ run_id: runId }) as Row | undefined;
  return row ? toCheckpoint(row) : null;
}

export function listCheckpoints(ctx: SqliteContext, runId: string): Checkpoint[] {
  return (ctx.sql.listCheckpoints.all({ run_id: runId }) as Row[]).map(toCheckpoint);
}

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

export function addArtifact(ctx: SqliteContext, input: NewArtifact): Artifact {
  const { now, id } = stamp(ctx, 'art');
  const row = ctx.sql.insertArtifact.get({
    id: input.id ?? id,
    run_id: input.run_id,
    step_id: input.step_id,
    node_id: input.node_id,
    name: input.name,
    kind: input.kind,
    media_type: input.media_type,
    size: input.size,
    sha256: input.sha256,
    uri: input.uri,
    metadata: toJson(input.metadata),
    now,
  }) as Row | undefined;
  if (!row) throw new RunNotFoundError(input.run_id);
  return toArtifact(row);
}

export function getArtifact(ctx: SqliteContext, id: string): Artifact {
  const row = ctx.sql.getArtifact.get({ id }) as Row | undefined;
  if (!row) throw new RecordNotFoundError('ARTIFACT_NOT_FOUND', 'Artifact', id);
  return toArtifact(row);
}

export function listArtifacts(ctx: SqliteContext, runId: string): Artifact[] {
  return (ctx.sql.listArtifacts.all({ run_id: runId }) as Row[]).map(toArtifact);
}

export function recordAudit(ctx: SqliteContext, entry: NewAuditEntry): AuditEntry {
  const { now, id } = stamp(ctx, 'aud');
  const row = ctx.sql.insertAudit.get({
    id,
    now,
    event: entry.event,
    tool_name: entry.tool_name,
    args_summary: entry.args_summary,
    result_summary: entry.result_summary,
    session_id: entry.session_id,
    run_id: entry.run_id,
    workdir: entry.workdir,
    success: entry.success ? 1 : 0,
  }) as Row;
  return toAuditEntry(row);
}

export function listAudit(ctx: SqliteContext, query: AuditQuery): { entries: AuditEntry[]; total: number } {
  const filter = { event: query.event ?? null, run_id: query.run_id ?? null, since: query.since ?? null };
  // One read transaction: the page and the total come from the same snapshot.
  ctx.sql.beginRead.run();
  try {
    const rows = ctx.sql.listAudit.all({ ...filter, limit: query.limit ?? 50 }) as Row[];
    const { total } = ctx.sql.countAudit.get(filter) as { total: number };
    return { entries: rows.map(toAuditEntry), total };
  } finally {
    ctx.sql.commit.run();
  }
}
