import type { DatabaseSync } from 'node:sqlite';
import type { ErrorObject } from '../../errors/index.ts';
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
  RunStore,
  RunTransition,
  RunUsage,
  Step,
  StepStatus,
  Task,
  TaskChange,
  UserInput,
} from '../contract.ts';
import * as approvals from './approval-queries.ts';
import * as artifacts from './artifact-queries.ts';
import type { SqliteContext } from './context.ts';
import { retryWhileBusy } from './database.ts';
import { SqliteEventAppender } from './event-appender.ts';
import * as events from './event-queries.ts';
import * as inputs from './input-queries.ts';
import { ownedDatabases } from './owned-databases.ts';
import * as projects from './project-queries.ts';
import * as runs from './run-queries.ts';
import { SqliteRunWatch } from './run-watch.ts';
import { sqliteFailure } from './sqlite-failure.ts';
import { prepareStatements } from './statements.ts';
import * as steps from './step-queries.ts';

export interface SqliteRunStoreOptions {
  now?: () => Date;
  /** How often subscribers' runs are checked for changes. Default 100 ms. */
  pollMs?: number;
}

/** WAL pages (4 KiB each) after which a commit checkpoints the log into the database file. */
const walCheckpointPages = 4000;

/**
 * The durable store on the embedded SQLite database (WAL). Each operation is one statement or one
 * `BEGIN IMMEDIATE` transaction, so several processes may share the file: SQLite's write lock orders
 * their writes, and busy_timeout makes a writer wait for it rather than fail. The work lives in one
 * query file per record (run-queries.ts, step-queries.ts, …, as in @keel/store-postgres); this class gives
 * it the async contract and closes over the connection.
 */
export class SqliteRunStore implements RunStore {
  readonly kind = 'sqlite';
  readonly #ctx: SqliteContext;
  readonly #watch: SqliteRunWatch;
  readonly #appender: SqliteEventAppender;
  #closed = false;

  constructor(db: DatabaseSync, options: SqliteRunStoreOptions = {}) {
    // Preparing reads the schema, which can meet another process converting the file.
    const sql = retryWhileBusy(() => prepareStatements(db));
    this.#ctx = { db, sql, now: options.now ?? (() => new Date()) };
    // A longer interval between checkpoints than SQLite's 1000 pages: appends rewrite the same few pages
    // (the events' last, the open segments') commit after commit; a longer interval copies each once for
    // more commits, and syncs less often (decisions/2026-11-23-event-append-and-replay.md).
    db.exec(`PRAGMA wal_autocheckpoint = ${walCheckpointPages}`);
    this.#watch = new SqliteRunWatch(sql.watchRuns, options.pollMs ?? 100);
    this.#appender = new SqliteEventAppender(
      this.#ctx,
      (runIds) => this.#watch.changed(runIds),
      (error) => sqliteFailure(db, error),
    );
  }

  createRun(input: NewRun): Promise<Run> {
    return this.#call(() => runs.createRun(this.#ctx, input));
  }

  getRun(id: string): Promise<Run> {
    return this.#call(() => runs.getRun(this.#ctx, id));
  }

  listRuns(query: RunQuery = {}): Promise<Run[]> {
    return this.#call(() => runs.listRuns(this.#ctx, query));
  }

  transition(id: string, change: RunTransition): Promise<Run> {
    return this.#call(() => runs.transition(this.#ctx, id, change));
  }

  addUsage(id: string, usage: RunUsage, costUsd: number): Promise<void> {
    return this.#call(() => runs.addUsage(this.#ctx, id, usage, costUsd));
  }

  claimRun(id: string, claim: Claim & { from?: readonly RunStatus[] }): Promise<Run | null> {
    return this.#call(() => runs.claimRun(this.#ctx, id, claim));
  }

  claimNext(claim: Claim): Promise<Run | null> {
    return this.#call(() => runs.claimNext(this.#ctx, claim));
  }

  claimOrphan(claim: Claim): Promise<OrphanClaim | null> {
    return this.#call(() => runs.claimOrphan(this.#ctx, claim));
  }

  renewLease(id: string, claim: Claim): Promise<boolean> {
    return this.#call(() => runs.renewLease(this.#ctx, id, claim));
  }

  appendEvent(runId: string, event: JsonObject & { type: string }): Promise<number> {
    // Group commit (event-appender.ts): settles once the event's batch is committed.
    return this.#appender.append(runId, event);
  }

  listEvents(runId: string, options: { after?: number; limit?: number } = {}): Promise<RunEventRecord[]> {
    return this.#call(() => events.listEvents(this.#ctx, runId, options));
  }

  listEventTexts(runId: string, options: { after?: number; limit?: number } = {}): Promise<RunEventText[]> {
    return this.#call(() => events.listEventTexts(this.#ctx, runId, options));
  }

  startStep(input: NewStep): Promise<Step> {
    return this.#call(() => steps.startStep(this.#ctx, input));
  }

  finishStep(
    id: string,
    outcome: { status: Exclude<StepStatus, 'running'>; error?: ErrorObject | null; detail?: JsonObject },
  ): Promise<Step> {
    return this.#call(() => steps.finishStep(this.#ctx, id, outcome));
  }

  listSteps(runId: string): Promise<Step[]> {
    return this.#call(() => steps.listSteps(this.#ctx, runId));
  }

  saveCheckpoint(input: NewCheckpoint): Promise<Checkpoint> {
    return this.#call(() => steps.saveCheckpoint(this.#ctx, input));
  }

  getCheckpoint(id: string): Promise<Checkpoint> {
    return this.#call(() => steps.getCheckpoint(this.#ctx, id));
  }

  latestCheckpoint(runId: string): Promise<Checkpoint | null> {
    return this.#call(() => steps.latestCheckpoint(this.#ctx, runId));
  }

  listCheckpoints(runId: string): Promise<Checkpoint[]> {
    return this.#call(() => steps.listCheckpoints(this.#ctx, runId));
  }

  checkpointChain(runId: string, upTo?: string): Promise<Checkpoint[]> {
    return this.#call(() => steps.checkpointChain(this.#ctx, runId, upTo));
  }

  createApproval(input: NewApproval): Promise<Approval> {
    return this.#call(() => approvals.createApproval(this.#ctx, input));
  }

  getApproval(id: string): Promise<Approval> {
    return this.#call(() => approvals.getApproval(this.#ctx, id));
  }

  listApprovals(query: ApprovalQuery = {}): Promise<Approval[]> {
    return this.#call(() => approvals.listApprovals(this.#ctx, query));
  }

  decideApproval(id: string, decision: ApprovalDecision): Promise<Approval> {
    return this.#call(() => approvals.decideApproval(this.#ctx, id, decision));
  }

  requestControl(runId: string, kind: ControlKind): Promise<string> {
    return this.#call(() => events.requestControl(this.#ctx, runId, kind));
  }

  takeControls(runId: string): Promise<ControlKind[]> {
    return this.#call(() => events.takeControls(this.#ctx, runId));
  }

  addUserInput(runId: string, content: string): Promise<UserInput> {
    return this.#call(() => inputs.addUserInput(this.#ctx, runId, content));
  }

  pendingUserInputs(runId: string): Promise<UserInput[]> {
    return this.#call(() => inputs.pendingUserInputs(this.#ctx, runId));
  }

  consumeUserInputs(runId: string, ids: readonly string[]): Promise<void> {
    return this.#call(() => inputs.consumeUserInputs(this.#ctx, runId, ids));
  }

  addArtifact(input: NewArtifact): Promise<Artifact> {
    return this.#call(() => artifacts.addArtifact(this.#ctx, input));
  }

  getArtifact(id: string): Promise<Artifact> {
    return this.#call(() => artifacts.getArtifact(this.#ctx, id));
  }

  listArtifacts(runId: string): Promise<Artifact[]> {
    return this.#call(() => artifacts.listArtifacts(this.#ctx, runId));
  }

  recordAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    return this.#call(() => artifacts.recordAudit(this.#ctx, entry));
  }

  listAudit(query: AuditQuery = {}): Promise<{ entries: AuditEntry[]; total: number }> {
    return this.#call(() => artifacts.listAudit(this.#ctx, query));
  }

  createProject(input: NewProject): Promise<Project> {
    return this.#call(() => projects.createProject(this.#ctx, input));
  }

  getProject(id: string): Promise<Project> {
    return this.#call(() => projects.getProject(this.#ctx, id));
  }

  listProjects(query: ProjectQuery = {}): Promise<Project[]> {
    return this.#call(() => projects.listProjects(this.#ctx, query));
  }

  updateProject(id: string, change: ProjectChange): Promise<Project> {
    return this.#call(() => projects.updateProject(this.#ctx, id, change));
  }

  deleteProject(id: string): Promise<void> {
    return this.#call(() => projects.deleteProject(this.#ctx, id));
  }

  createTask(input: NewTask): Promise<Task> {
    return this.#call(() => projects.createTask(this.#ctx, input));
  }

  getTask(id: string): Promise<Task> {
    return this.#call(() => projects.getTask(this.#ctx, id));
  }

  listTasks(projectId: string, query: ProjectQuery = {}): Promise<Task[]> {
    return this.#call(() => projects.listTasks(this.#ctx, projectId, query));
  }

  updateTask(id: string, change: TaskChange): Promise<Task> {
    return this.#call(() => projects.updateTask(this.#ctx, id, change));
  }

  deleteTask(id: string): Promise<void> {
    return this.#call(() => projects.deleteTask(this.#ctx, id));
  }

  subscribe(runId: string, listener: () => void): () => void {
    return this.#watch.subscribe(runId, listener);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#watch.close();
    return this.#call(() => {
      if (ownedDatabases.has(this) && this.#ctx.db.isOpen) this.#ctx.db.close();
    });
  }

  /**
   * The async face of a synchronous operation; a raw SQLite failure (busy, closed, full disk) becomes
   * STORE_ERROR. Appends still queued for the group commit are written first, so every operation sees them.
   */
  async #call<T>(work: () => T): Promise<T> {
    try {
      this.#appender.flush();
      return work();
    } catch (error) {
      throw sqliteFailure(this.#ctx.db, error);
    }
  }
}
