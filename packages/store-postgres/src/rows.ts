import type { ErrorObject } from '@keel/runtime/errors';
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
} from '@keel/runtime/store/contract';

// Row shapes as the driver returns them: jsonb parsed, timestamptz as Date, bigint as string.

export interface RunRow {
  id: string;
  status: RunStatus;
  session_id: string | null;
  workdir: string;
  prompt: string;
  workflow: JsonValue;
  input: JsonObject;
  result: JsonValue | null;
  error: ErrorObject | null;
  last_seq: number;
  attempt: number;
  forked_from: Run['forked_from'];
  lease_owner: string | null;
  lease_expires_at: Date | null;
  input_tokens: string;
  output_tokens: string;
  total_tokens: string;
  cost_usd: number;
  parent_run_id: string | null;
  agent: RunAgent | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  ended_at: Date | null;
}

function iso(date: Date): string {
  return date.toISOString();
}

function isoOrNull(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

export function toRun(row: RunRow): Run {
  return {
    id: row.id,
    status: row.status,
    session_id: row.session_id,
    workdir: row.workdir,
    prompt: row.prompt,
    workflow: row.workflow,
    input: row.input,
    result: row.result ?? null,
    error: row.error ?? null,
    last_seq: row.last_seq,
    attempt: row.attempt,
    forked_from: row.forked_from ?? null,
    lease_owner: row.lease_owner,
    lease_expires_at: isoOrNull(row.lease_expires_at),
    usage: {
      input_tokens: Number(row.input_tokens),
      output_tokens: Number(row.output_tokens),
      total_tokens: Number(row.total_tokens),
    },
    cost_usd: row.cost_usd,
    parent_run_id: row.parent_run_id ?? null,
    agent: row.agent ?? null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    started_at: isoOrNull(row.started_at),
    ended_at: isoOrNull(row.ended_at),
  };
}

export interface EventRow {
  id: string;
  run_id: string;
  seq: number;
  type: string;
  event: JsonObject;
  created_at: Date;
}

export function toEvent(row: EventRow): RunEventRecord {
  return {
    id: row.id,
    run_id: row.run_id,
    seq: row.seq,
    type: row.type,
    event: row.event,
    created_at: iso(row.created_at),
  };
}

export interface StepRow {
  id: string;
  run_id: string;
  node_id: string;
  kind: StepKind;
  status: StepStatus;
  attempt: number;
  worker_id: string | null;
  detail: JsonObject;
  error: ErrorObject | null;
  started_at: Date;
  ended_at: Date | null;
}

export function toStep(row: StepRow): Step {
  return {
    id: row.id,
    run_id: row.run_id,
    node_id: row.node_id,
    kind: row.kind,
    status: row.status,
    attempt: row.attempt,
    worker_id: row.worker_id ?? null,
    detail: row.detail,
    error: row.error ?? null,
    started_at: iso(row.started_at),
    ended_at: isoOrNull(row.ended_at),
  };
}

export interface CheckpointRow {
  id: string;
  run_id: string;
  step_id: string | null;
  seq: number;
  state: JsonValue;
  created_at: Date;
}

export function toCheckpoint(row: CheckpointRow): Checkpoint {
  return {
    id: row.id,
    run_id: row.run_id,
    step_id: row.step_id,
    seq: row.seq,
    state: row.state,
    created_at: iso(row.created_at),
  };
}

export interface ApprovalRow {
  id: string;
  run_id: string;
  step_id: string | null;
  node_id: string;
  kind: ApprovalKind;
  prompt: string;
  options: string[];
  detail: JsonObject;
  status: ApprovalStatus;
  answer: string | null;
  decided_by: string | null;
  created_at: Date;
  decided_at: Date | null;
}

export function toApproval(row: ApprovalRow): Approval {
  return {
    id: row.id,
    run_id: row.run_id,
    step_id: row.step_id,
    node_id: row.node_id,
    kind: row.kind,
    prompt: row.prompt,
    options: row.options,
    detail: row.detail,
    status: row.status,
    answer: row.answer,
    decided_by: row.decided_by,
    created_at: iso(row.created_at),
    decided_at: isoOrNull(row.decided_at),
  };
}

export interface ArtifactRow extends Omit<Artifact, 'size' | 'created_at'> {
  size: string;
  created_at: Date;
}

export function toArtifact(row: ArtifactRow): Artifact {
  return {
    id: row.id,
    run_id: row.run_id,
    step_id: row.step_id,
    node_id: row.node_id,
    name: row.name,
    kind: row.kind,
    media_type: row.media_type,
    size: Number(row.size),
    sha256: row.sha256,
    uri: row.uri,
    metadata: row.metadata,
    created_at: iso(row.created_at),
  };
}

export interface AuditRow extends Omit<AuditEntry, 'timestamp'> {
  timestamp: Date;
}

export function toAudit(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    timestamp: iso(row.timestamp),
    event: row.event,
    tool_name: row.tool_name,
    args_summary: row.args_summary,
    result_summary: row.result_summary,
    session_id: row.session_id,
    run_id: row.run_id,
    workdir: row.workdir,
    success: row.success,
  };
}
