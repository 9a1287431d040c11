import type { ErrorObject } from '../../errors/index.ts';
import type {
  Approval,
  ApprovalKind,
  ApprovalStatus,
  Artifact,
  AuditEntry,
  Checkpoint,
  JsonObject,
  JsonValue,
  Run,
  RunAgent,
  RunEventRecord,
  RunStatus,
  Step,
  StepKind,
  StepStatus,
} from '../contract.ts';

// Rows as node:sqlite returns them (null-prototype objects, JSON fields as TEXT), and their mapping to
// the contract's records. Each mapper lists the fields explicitly so extra columns (the old
// `heartbeat_at`) never leak into a record.

export type Row = Record<string, unknown>;

function text(value: unknown): string {
  return value as string;
}

function textOrNull(value: unknown): string | null {
  return (value as string | null) ?? null;
}

function json<T>(value: unknown): T {
  return JSON.parse(value as string) as T;
}

function jsonOrNull<T>(value: unknown): T | null {
  return value === null || value === undefined ? null : (JSON.parse(value as string) as T);
}

/** JSON for a TEXT column; `null` stays SQL NULL only where the caller asks for it. */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

export function toJsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

export function toRun(row: Row): Run {
  return {
    id: text(row.id),
    status: text(row.status) as RunStatus,
    session_id: textOrNull(row.session_id),
    workdir: text(row.workdir),
    prompt: text(row.prompt),
    workflow: json<JsonValue>(row.workflow),
    input: json<JsonObject>(row.input),
    result: jsonOrNull<JsonValue>(row.result),
    error: jsonOrNull<ErrorObject>(row.error),
    // Read from the run's events (statements.ts, `run`): appends do not rewrite the run's row.
    last_seq: row.events_last_seq as number,
    attempt: row.attempt as number,
    forked_from: jsonOrNull<{ run_id: string; checkpoint_id: string }>(row.forked_from),
    lease_owner: textOrNull(row.lease_owner),
    lease_expires_at: textOrNull(row.lease_expires_at),
    usage: {
      input_tokens: row.input_tokens as number,
      output_tokens: row.output_tokens as number,
      total_tokens: row.total_tokens as number,
    },
    cost_usd: row.cost_usd as number,
    parent_run_id: textOrNull(row.parent_run_id),
    agent: jsonOrNull<RunAgent>(row.agent),
    created_at: text(row.created_at),
    updated_at: later(text(row.updated_at), textOrNull(row.events_updated_at)),
    started_at: textOrNull(row.started_at),
    ended_at: textOrNull(row.ended_at),
  };
}

/** The later of two ISO 8601 UTC timestamps (they sort as text). */
function later(a: string, b: string | null): string {
  return b !== null && b > a ? b : a;
}

export function toEventRecord(row: Row): RunEventRecord {
  return {
    id: text(row.id),
    run_id: text(row.run_id),
    seq: row.seq as number,
    type: text(row.type),
    event: json<JsonObject>(row.data),
    created_at: text(row.created_at),
  };
}

export function toStep(row: Row): Step {
  return {
    id: text(row.id),
    run_id: text(row.run_id),
    node_id: text(row.node_id),
    kind: text(row.kind) as StepKind,
    status: text(row.status) as StepStatus,
    attempt: row.attempt as number,
    worker_id: textOrNull(row.worker_id),
    detail: json<JsonObject>(row.detail),
    error: jsonOrNull<ErrorObject>(row.error),
    started_at: text(row.started_at),
    ended_at: textOrNull(row.ended_at),
  };
}

export function toCheckpoint(row: Row): Checkpoint {
  return checkpointWith(row, json<JsonValue>(row.state));
}

/** The record of a checkpoint row holding `state`, which the caller has (it wrote it): the row need not. */
export function checkpointWith(row: Row, state: JsonValue): Checkpoint {
  return {
    id: text(row.id),
    run_id: text(row.run_id),
    step_id: textOrNull(row.step_id),
    seq: row.seq as number,
    state,
    created_at: text(row.created_at),
  };
}

export function toApproval(row: Row): Approval {
  return {
    id: text(row.id),
    run_id: text(row.run_id),
    step_id: textOrNull(row.step_id),
    node_id: text(row.node_id),
    kind: text(row.kind) as ApprovalKind,
    prompt: text(row.prompt),
    options: json<string[]>(row.options),
    detail: json<JsonObject>(row.detail),
    status: text(row.status) as ApprovalStatus,
    answer: textOrNull(row.answer),
    decided_by: textOrNull(row.decided_by),
    created_at: text(row.created_at),
    decided_at: textOrNull(row.decided_at),
  };
}

export function toArtifact(row: Row): Artifact {
  return {
    id: text(row.id),
    run_id: text(row.run_id),
    step_id: textOrNull(row.step_id),
    node_id: textOrNull(row.node_id),
    name: text(row.name),
    kind: text(row.kind),
    media_type: text(row.media_type),
    size: row.size as number,
    sha256: text(row.sha256),
    uri: text(row.uri),
    metadata: json<JsonObject>(row.metadata),
    created_at: text(row.created_at),
  };
}

export function toAuditEntry(row: Row): AuditEntry {
  return {
    id: text(row.id),
    timestamp: text(row.timestamp),
    event: text(row.event),
    tool_name: textOrNull(row.tool_name),
    args_summary: text(row.args_summary),
    result_summary: text(row.result_summary),
    session_id: textOrNull(row.session_id),
    run_id: textOrNull(row.run_id),
    workdir: text(row.workdir),
    success: row.success === 1,
  };
}
