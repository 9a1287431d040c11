import type { ErrorObject } from '../errors/index.ts';
import type {
  Approval,
  ApprovalDecision,
  ApprovalQuery,
  Artifact,
  AuditEntry,
  AuditQuery,
  Checkpoint,
  Claim,
  ControlKind,
  JsonObject,
  NewApproval,
  NewArtifact,
  NewAuditEntry,
  NewCheckpoint,
  NewProject,
  NewRun,
  NewStep,
  NewTask,
  OrphanClaim,
  Project,
  ProjectChange,
  ProjectQuery,
  Run,
  RunEventRecord,
  RunEventText,
  RunQuery,
  RunStatus,
  RunTransition,
  RunUsage,
  Step,
  StepStatus,
  Task,
  TaskChange,
  UserInput,
} from './records/index.ts';

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
 *
 * The records are defined one file per record in records/; this file is their public face (other packages
 * import it as `@keel/runtime/store/contract`) and holds the interfaces that tie them together.
 */

export type {
  Approval,
  ApprovalDecision,
  ApprovalKind,
  ApprovalQuery,
  ApprovalStatus,
  Artifact,
  AuditEntry,
  AuditQuery,
  Checkpoint,
  Claim,
  ControlKind,
  JsonObject,
  JsonValue,
  NewApproval,
  NewArtifact,
  NewAuditEntry,
  NewCheckpoint,
  NewProject,
  NewRun,
  NewStep,
  NewTask,
  OrphanClaim,
  Project,
  ProjectChange,
  ProjectQuery,
  Run,
  RunAgent,
  RunEventRecord,
  RunEventText,
  RunQuery,
  RunStatus,
  RunTransition,
  RunUsage,
  Step,
  StepKind,
  StepStatus,
  SubAgentType,
  Task,
  TaskChange,
  UserInput,
} from './records/index.ts';
export { finishedStatuses, runStatuses } from './records/index.ts';

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
   * The run returned may carry the very `result` it was given (not a copy read back): leave it unchanged.
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
  /**
   * Takes the oldest orphaned run (running, lease expired) for this owner, atomically: two workers never
   * both get the same one. The run stays `running`, now with this owner's lease; `lost_owner` is the
   * worker whose lease ran out. Null when no run is orphaned. The caller then recovers it (RunControls).
   */
  claimOrphan(claim: Claim): Promise<OrphanClaim | null>;
  /** Extends the lease; false when the owner no longer holds it (the worker must stop). */
  renewLease(id: string, claim: Claim): Promise<boolean>;

  /** Stores an event under the run's next sequence number, atomically; returns that number. */
  appendEvent(runId: string, event: JsonObject & { type: string }): Promise<number>;
  /** Events after the cursor `after` (default 0), in order; default limit 1000. */
  listEvents(runId: string, options?: { after?: number; limit?: number }): Promise<RunEventRecord[]>;
  /**
   * Optional: the same page as `listEvents`, each event as its stored JSON text, for replays that pass
   * events on without parsing them (`runs.watchPages`). A store without it is read through `listEvents`.
   */
  listEventTexts?(runId: string, options?: { after?: number; limit?: number }): Promise<RunEventText[]>;

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

  /**
   * Saves a checkpoint at the run's current `last_seq` (and finishes its step, with `finishStep`). The
   * checkpoint returned may carry the very `state` it was given (not a copy read back).
   */
  saveCheckpoint(input: NewCheckpoint): Promise<Checkpoint>;
  /** Throws a KeelError with code CHECKPOINT_NOT_FOUND for an unknown id. */
  getCheckpoint(id: string): Promise<Checkpoint>;
  latestCheckpoint(runId: string): Promise<Checkpoint | null>;
  /** Oldest first; `state` is included. */
  listCheckpoints(runId: string): Promise<Checkpoint[]>;
  /**
   * Optional: the checkpoints a state is rebuilt from, oldest first: from the latest one saved `whole` at
   * or before `upTo` (or from the run's first when none was) up to `upTo` (default: the run's latest).
   * CHECKPOINT_NOT_FOUND when `upTo` is not a checkpoint of the run. Without it, `listCheckpoints` is read.
   */
  checkpointChain?(runId: string, upTo?: string): Promise<Checkpoint[]>;

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

  // Projects and their development tasks (the web API's `/api/projects` and `/api/tasks`).

  createProject(input: NewProject): Promise<Project>;
  /** Throws a KeelError with code PROJECT_NOT_FOUND for an unknown id. */
  getProject(id: string): Promise<Project>;
  /** Newest first. */
  listProjects(query?: ProjectQuery): Promise<Project[]>;
  /** Changes the given fields and `updated_at`; PROJECT_NOT_FOUND for an unknown id. */
  updateProject(id: string, change: ProjectChange): Promise<Project>;
  /** Deletes the project and its tasks; PROJECT_NOT_FOUND for an unknown id. */
  deleteProject(id: string): Promise<void>;
  /** PROJECT_NOT_FOUND when the project does not exist. */
  createTask(input: NewTask): Promise<Task>;
  /** Throws a KeelError with code TASK_NOT_FOUND for an unknown id. */
  getTask(id: string): Promise<Task>;
  /** The project's tasks, newest first; PROJECT_NOT_FOUND for an unknown project. */
  listTasks(projectId: string, query?: ProjectQuery): Promise<Task[]>;
  /** Changes the given fields and `updated_at`; TASK_NOT_FOUND for an unknown id. */
  updateTask(id: string, change: TaskChange): Promise<Task>;
  /** TASK_NOT_FOUND for an unknown id. */
  deleteTask(id: string): Promise<void>;

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
