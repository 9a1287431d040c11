import type { ErrorObject } from '../errors/index.ts';

/**
 * The durable store contract: every record of a run (Run, Step, Event, Checkpoint, Artifact, Approval,
 * Audit, Control) behind one async interface. The SQLite store (embedded default) and
 * `@keel/store-postgres` (multi-process) both implement it and pass one contract test suite.
 *
 * Rules every implementation keeps:
 * - ids are stable, prefixed and time-sortable (`newId('run')` → `run_…`); list order by id is time order;
 * - `appendEvent` assigns the run's next gapless `seq` (from 1) atomically, even under concurrent writers;
 * - `claimRun`/`claimNext` are atomic: two workers never both get the same run;
 * - a status change guarded by `from` fails with InvalidStateError when the run is in another state,
 *   and RunNotFoundError when the run does not exist;
 * - a method that writes for a run (and `getRun`, `listEvents`) throws RunNotFoundError for an unknown run
 *   id; `renewLease` returns false, and the other per-run readers return nothing;
 * - timestamps are ISO 8601 strings in UTC with a `Z` (`new Date().toISOString()`), except where noted.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * queued: waiting for a worker to claim it; running: a worker holds its lease; waiting: needs an approval
 * or an answer, no worker holds it; paused: stopped at a safe boundary on request; succeeded, failed and
 * cancelled are final.
 */
export type RunStatus = 'queued' | 'running' | 'waiting' | 'paused' | 'succeeded' | 'failed' | 'cancelled';

export const runStatuses: readonly RunStatus[] = [
  'queued',
  'running',
  'waiting',
  'paused',
  'succeeded',
  'failed',
  'cancelled',
];

export const finishedStatuses: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];

export interface RunUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export interface Run {
  id: string;
  status: RunStatus;
  session_id: string | null;
  workdir: string;
  prompt: string;
  /** The workflow graph the run executes, stored with it so any process can resume it. */
  workflow: JsonValue;
  /** The run's input (the validated run request without secrets). */
  input: JsonObject;
  /** The final result once succeeded (the agent's run result, or the workflow's output). */
  result: JsonValue | null;
  error: ErrorObject | null;
  /** Sequence number of the run's last event: the cursor a caught-up reader holds. */
  last_seq: number;
  /** 1 for the first execution; each retry adds one. */
  attempt: number;
  /** Set on a fork: the run and checkpoint it was taken from. */
  forked_from: { run_id: string; checkpoint_id: string } | null;
  /** The worker holding the run while it is running, and until when. */
  lease_owner: string | null;
  lease_expires_at: string | null;
  usage: RunUsage;
  cost_usd: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  ended_at: string | null;
}

export interface NewRun {
  session_id: string | null;
  workdir: string;
  prompt: string;
  workflow: JsonValue;
  input: JsonObject;
  /** Default `queued`. */
  status?: RunStatus;
  forked_from?: { run_id: string; checkpoint_id: string } | null;
}

export interface RunQuery {
  status?: RunStatus;
  /** Default 20. */
  limit?: number;
  /** Page cursor: only runs whose id sorts before this one (newest first). */
  before?: string;
}

/** A conditional status change; see `RunStore.transition`. */
export interface RunTransition {
  /** The change happens only if the run is in one of these states, else InvalidStateError. */
  from: readonly RunStatus[];
  to: RunStatus;
  /** When set, the change also requires the run's lease to be held by this owner, else InvalidStateError. */
  owner?: string;
  error?: ErrorObject | null;
  result?: JsonValue | null;
  /** Releases the lease (lease_owner and lease_expires_at become null). Default: true unless `to` is running. */
  releaseLease?: boolean;
  /** Adds one to `attempt` (a retry). */
  nextAttempt?: boolean;
}

export interface Claim {
  /** Who claims: `host:pid:random`, unique per worker. */
  owner: string;
  leaseMs: number;
}

/** One stored event with its place in the run. */
export interface RunEventRecord {
  id: string;
  run_id: string;
  /** Gapless, from 1: resume after a disconnect with `listEvents(runId, { after: seq })`. */
  seq: number;
  type: string;
  /** The event exactly as delivered (it has at least `type`). */
  event: JsonObject;
  created_at: string;
}

export type StepKind = 'model_turn' | 'tool_batch' | 'tool' | 'approval' | 'gate' | 'node';
export type StepStatus = 'running' | 'succeeded' | 'failed' | 'cancelled' | 'waiting' | 'abandoned';

/** A step: a model turn, a tool batch, an approval, a gate or a non-agent node execution. */
export interface Step {
  id: string;
  run_id: string;
  /** The workflow node it belongs to. */
  node_id: string;
  kind: StepKind;
  status: StepStatus;
  attempt: number;
  detail: JsonObject;
  error: ErrorObject | null;
  started_at: string;
  ended_at: string | null;
}

export interface NewStep {
  run_id: string;
  node_id: string;
  kind: StepKind;
  /** Default: the run's current attempt. */
  attempt?: number;
  detail?: JsonObject;
}

export interface Checkpoint {
  id: string;
  run_id: string;
  step_id: string | null;
  /** The run's event cursor when the checkpoint was taken: history up to here belongs to it. */
  seq: number;
  /** The scheduler's serialised state: enough to resume the run in any process. */
  state: JsonValue;
  created_at: string;
}

export type ApprovalKind = 'tool' | 'node' | 'question';
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'answered' | 'cancelled';

export interface Approval {
  id: string;
  run_id: string;
  step_id: string | null;
  node_id: string;
  kind: ApprovalKind;
  /** What the human is asked. */
  prompt: string;
  /** The choices offered (for a tool or node approval: approve, reject). */
  options: string[];
  /** What is being approved, e.g. `{ tool_name, args }`. */
  detail: JsonObject;
  status: ApprovalStatus;
  /** The answer to a question, or the reason given with a decision. */
  answer: string | null;
  decided_by: string | null;
  created_at: string;
  decided_at: string | null;
}

export interface NewApproval {
  run_id: string;
  step_id: string | null;
  node_id: string;
  kind: ApprovalKind;
  prompt: string;
  options: string[];
  detail?: JsonObject;
}

export interface ApprovalDecision {
  status: Exclude<ApprovalStatus, 'pending'>;
  answer?: string | null;
  decided_by?: string | null;
}

export interface ApprovalQuery {
  run_id?: string;
  status?: ApprovalStatus;
  /** Default 50. */
  limit?: number;
}

export type ControlKind = 'cancel' | 'pause';

/** A message a user sent to a running run; the run shows it to the model at its next turn. */
export interface UserInput {
  id: string;
  run_id: string;
  content: string;
  created_at: string;
  /** When a checkpoint that holds it was written; null while it waits for the run's next turn. */
  consumed_at: string | null;
}

export interface Artifact {
  id: string;
  run_id: string;
  step_id: string | null;
  node_id: string | null;
  /** A short name, e.g. `review.json` or the path of a file. */
  name: string;
  /** What it is: `review`, `output`, `file`, … */
  kind: string;
  media_type: string;
  size: number;
  sha256: string;
  /** Where the payload lives in the blob store (`file:…` or `s3://…`). */
  uri: string;
  metadata: JsonObject;
  created_at: string;
}

export type NewArtifact = Omit<Artifact, 'id' | 'created_at'> & { id?: string };

/** The spec's audit entry (section 2), with the run it belongs to. */
export interface AuditEntry {
  id: string;
  timestamp: string;
  /** tool_call, file_write, file_edit, command_exec, api_request, auth_failure, run_control, … */
  event: string;
  tool_name: string | null;
  args_summary: string;
  result_summary: string;
  session_id: string | null;
  run_id: string | null;
  workdir: string;
  success: boolean;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'timestamp'>;

export interface AuditQuery {
  event?: string;
  run_id?: string;
  /** ISO 8601: only entries at or after it. */
  since?: string;
  /** Default 50. */
  limit?: number;
}

/** The durable store of runs. Every method is async so that networked databases fit the same contract. */
export interface RunStore {
  /** `sqlite` or `postgres`: shown by `keel runs list --json` and in diagnostics. */
  readonly kind: string;

  createRun(input: NewRun): Promise<Run>;
  /** Throws RunNotFoundError for an unknown id. */
  getRun(id: string): Promise<Run>;
  /** Newest first. */
  listRuns(query?: RunQuery): Promise<Run[]>;
  /**
   * Guarded status change; see RunTransition. Returns the updated run. Sets `started_at` when the run
   * first becomes running, and `ended_at` when `to` is final (a non-final `to`, a retry, clears it).
   */
  transition(id: string, change: RunTransition): Promise<Run>;
  /** Adds to the run's usage and cost (called as the run spends). */
  addUsage(id: string, usage: RunUsage, costUsd: number): Promise<void>;

  /**
   * Claims one run for a worker: it must be in one of `from` (default `['queued']`); a run in `running` is
   * claimable only when its lease expired (that is recovery). On success the run is `running` with this
   * owner's lease and `started_at` set if it was not; otherwise null. RunNotFoundError for an unknown id.
   */
  claimRun(id: string, claim: Claim & { from?: readonly RunStatus[] }): Promise<Run | null>;
  /** Claims the oldest queued run, or returns null when there is none. */
  claimNext(claim: Claim): Promise<Run | null>;
  /** Extends the lease; false when the owner no longer holds it (the worker must stop). */
  renewLease(id: string, claim: Claim): Promise<boolean>;

  /** Stores an event under the run's next sequence number, atomically; returns that number. */
  appendEvent(runId: string, event: JsonObject & { type: string }): Promise<number>;
  /** Events after the cursor `after` (default 0), in order; default limit 1000. */
  listEvents(runId: string, options?: { after?: number; limit?: number }): Promise<RunEventRecord[]>;

  startStep(input: NewStep): Promise<Step>;
  /**
   * Ends a running or waiting step (InvalidStateError otherwise); `detail` is merged into the step's
   * detail, key by key.
   */
  finishStep(
    id: string,
    outcome: { status: Exclude<StepStatus, 'running'>; error?: ErrorObject | null; detail?: JsonObject },
  ): Promise<Step>;
  /** In start order. */
  listSteps(runId: string): Promise<Step[]>;

  /** Saves a checkpoint at the run's current `last_seq`. */
  saveCheckpoint(input: { run_id: string; step_id: string | null; state: JsonValue }): Promise<Checkpoint>;
  /** Throws a KeelError with code CHECKPOINT_NOT_FOUND for an unknown id. */
  getCheckpoint(id: string): Promise<Checkpoint>;
  latestCheckpoint(runId: string): Promise<Checkpoint | null>;
  /** Oldest first; `state` is included. */
  listCheckpoints(runId: string): Promise<Checkpoint[]>;

  createApproval(input: NewApproval): Promise<Approval>;
  /** Throws a KeelError with code APPROVAL_NOT_FOUND for an unknown id. */
  getApproval(id: string): Promise<Approval>;
  /** Newest first. */
  listApprovals(query?: ApprovalQuery): Promise<Approval[]>;
  /** Decides a pending approval; InvalidStateError if it was already decided. */
  decideApproval(id: string, decision: ApprovalDecision): Promise<Approval>;

  /** Records a control request any process may write; the worker running the run acts on it. */
  requestControl(runId: string, kind: ControlKind): Promise<string>;
  /** Takes the run's unhandled control requests, marking them handled, oldest first. */
  takeControls(runId: string): Promise<ControlKind[]>;

  /** Records a user message for a run that has not ended; InvalidStateError once it has. */
  addUserInput(runId: string, content: string): Promise<UserInput>;
  /** The run's messages not yet marked consumed, oldest first. */
  pendingUserInputs(runId: string): Promise<UserInput[]>;
  /** Marks messages consumed (a checkpoint holds them); ids already consumed are left as they are. */
  consumeUserInputs(runId: string, ids: readonly string[]): Promise<void>;

  addArtifact(input: NewArtifact): Promise<Artifact>;
  /** Throws a KeelError with code ARTIFACT_NOT_FOUND for an unknown id. */
  getArtifact(id: string): Promise<Artifact>;
  /** Oldest first. */
  listArtifacts(runId: string): Promise<Artifact[]>;

  recordAudit(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Newest first, with the total count that matched before the limit. */
  listAudit(query?: AuditQuery): Promise<{ entries: AuditEntry[]; total: number }>;

  /**
   * Calls `listener` soon after the run gets a new event or changes status, in this or another process
   * (PostgreSQL: LISTEN/NOTIFY; SQLite: short polling). Returns a function that stops it.
   */
  subscribe(runId: string, listener: () => void): () => void;

  close(): Promise<void>;
}

/** Where artifact payloads live: the filesystem by default, an S3-compatible bucket in production. */
export interface BlobStore {
  /** `file` or `s3`. */
  readonly kind: string;
  /** Stores a payload under `key` (e.g. `run_…/art_…`); returns its uri, size and sha256 (hex). */
  put(key: string, data: Uint8Array | string): Promise<{ uri: string; size: number; sha256: string }>;
  /** Reads a payload back by the uri `put` returned; ARTIFACT_NOT_FOUND when it is gone. */
  get(uri: string): Promise<Uint8Array>;
  close?(): Promise<void>;
}
