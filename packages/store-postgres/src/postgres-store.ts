import type { ErrorObject } from '@keel/runtime/errors';
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
} from '@keel/runtime/store/contract';
import type pg from 'pg';
import * as approvals from './approval-queries.ts';
import * as artifacts from './artifact-queries.ts';
import { Database } from './database.ts';
import * as events from './event-queries.ts';
import * as inputs from './input-queries.ts';
import type { NotificationHub } from './notifications.ts';
import * as projects from './project-queries.ts';
import * as runs from './run-queries.ts';
import * as steps from './step-queries.ts';

/**
 * The multi-process RunStore on PostgreSQL: any number of workers, API servers and CLIs on any machines
 * share runs, claim them atomically and hear each other's events through LISTEN/NOTIFY.
 * Open it with `createPostgresStore`, which also migrates the schema.
 *
 * @example
 * const store = await createPostgresStore({ url: 'postgres://keel@db:5432/keel' });
 * const run = await store.claimNext({ owner: 'host:123:abc', leaseMs: 30_000 });
 */
export class PostgresRunStore implements RunStore {
  readonly kind = 'postgres';
  readonly #db: Database;
  readonly #hub: NotificationHub;
  readonly #ownsPool: boolean;
  #closed = false;

  /** Prefer `createPostgresStore`: this constructor expects a migrated schema and a started hub. */
  constructor(pool: pg.Pool, options: { schema: string; ownsPool: boolean; hub: NotificationHub }) {
    this.#db = new Database(pool, options.schema);
    this.#hub = options.hub;
    this.#ownsPool = options.ownsPool;
  }

  createRun(input: NewRun): Promise<Run> {
    return runs.createRun(this.#db, input);
  }
  getRun(id: string): Promise<Run> {
    return runs.getRun(this.#db, id);
  }
  listRuns(query?: RunQuery): Promise<Run[]> {
    return runs.listRuns(this.#db, query);
  }
  transition(id: string, change: RunTransition): Promise<Run> {
    return runs.transition(this.#db, id, change);
  }
  addUsage(id: string, usage: RunUsage, costUsd: number): Promise<void> {
    return runs.addUsage(this.#db, id, usage, costUsd);
  }

  claimRun(id: string, claim: Claim & { from?: readonly RunStatus[] }): Promise<Run | null> {
    return runs.claimRun(this.#db, id, claim);
  }
  claimNext(claim: Claim): Promise<Run | null> {
    return runs.claimNext(this.#db, claim);
  }
  claimOrphan(claim: Claim): Promise<OrphanClaim | null> {
    return runs.claimOrphan(this.#db, claim);
  }
  renewLease(id: string, claim: Claim): Promise<boolean> {
    return runs.renewLease(this.#db, id, claim);
  }

  appendEvent(runId: string, event: JsonObject & { type: string }): Promise<number> {
    return events.appendEvent(this.#db, runId, event);
  }
  listEvents(runId: string, options?: { after?: number; limit?: number }): Promise<RunEventRecord[]> {
    return events.listEvents(this.#db, runId, options);
  }

  startStep(input: NewStep): Promise<Step> {
    return steps.startStep(this.#db, input);
  }
  finishStep(
    id: string,
    outcome: { status: Exclude<StepStatus, 'running'>; error?: ErrorObject | null; detail?: JsonObject },
  ): Promise<Step> {
    return steps.finishStep(this.#db, id, outcome);
  }
  listSteps(runId: string): Promise<Step[]> {
    return steps.listSteps(this.#db, runId);
  }

  saveCheckpoint(input: NewCheckpoint): Promise<Checkpoint> {
    return steps.saveCheckpoint(this.#db, input);
  }
  getCheckpoint(id: string): Promise<Checkpoint> {
    return steps.getCheckpoint(this.#db, id);
  }
  latestCheckpoint(runId: string): Promise<Checkpoint | null> {
    return steps.latestCheckpoint(this.#db, runId);
  }
  listCheckpoints(runId: string): Promise<Checkpoint[]> {
    return steps.listCheckpoints(this.#db, runId);
  }
  checkpointChain(runId: string, upTo?: string): Promise<Checkpoint[]> {
    return steps.checkpointChain(this.#db, runId, upTo);
  }

  createApproval(input: NewApproval): Promise<Approval> {
    return approvals.createApproval(this.#db, input);
  }
  getApproval(id: string): Promise<Approval> {
    return approvals.getApproval(this.#db, id);
  }
  listApprovals(query?: ApprovalQuery): Promise<Approval[]> {
    return approvals.listApprovals(this.#db, query);
  }
  decideApproval(id: string, decision: ApprovalDecision): Promise<Approval> {
    return approvals.decideApproval(this.#db, id, decision);
  }

  requestControl(runId: string, kind: ControlKind): Promise<string> {
    return events.requestControl(this.#db, runId, kind);
  }
  takeControls(runId: string): Promise<ControlKind[]> {
    return events.takeControls(this.#db, runId);
  }

  addUserInput(runId: string, content: string): Promise<UserInput> {
    return inputs.addUserInput(this.#db, runId, content);
  }
  pendingUserInputs(runId: string): Promise<UserInput[]> {
    return inputs.pendingUserInputs(this.#db, runId);
  }
  consumeUserInputs(runId: string, ids: readonly string[]): Promise<void> {
    return inputs.consumeUserInputs(this.#db, runId, ids);
  }

  addArtifact(input: NewArtifact): Promise<Artifact> {
    return artifacts.addArtifact(this.#db, input);
  }
  getArtifact(id: string): Promise<Artifact> {
    return artifacts.getArtifact(this.#db, id);
  }
  listArtifacts(runId: string): Promise<Artifact[]> {
    return artifacts.listArtifacts(this.#db, runId);
  }

  recordAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    return artifacts.recordAudit(this.#db, entry);
  }
  listAudit(query?: AuditQuery): Promise<{ entries: AuditEntry[]; total: number }> {
    return artifacts.listAudit(this.#db, query);
  }

  createProject(input: NewProject): Promise<Project> {
    return projects.createProject(this.#db, input);
  }
  getProject(id: string): Promise<Project> {
    return projects.getProject(this.#db, id);
  }
  listProjects(query?: ProjectQuery): Promise<Project[]> {
    return projects.listProjects(this.#db, query);
  }
  updateProject(id: string, change: ProjectChange): Promise<Project> {
    return projects.updateProject(this.#db, id, change);
  }
  deleteProject(id: string): Promise<void> {
    return projects.deleteProject(this.#db, id);
  }
  createTask(input: NewTask): Promise<Task> {
    return projects.createTask(this.#db, input);
  }
  getTask(id: string): Promise<Task> {
    return projects.getTask(this.#db, id);
  }
  listTasks(projectId: string, query?: ProjectQuery): Promise<Task[]> {
    return projects.listTasks(this.#db, projectId, query);
  }
  updateTask(id: string, change: TaskChange): Promise<Task> {
    return projects.updateTask(this.#db, id, change);
  }
  deleteTask(id: string): Promise<void> {
    return projects.deleteTask(this.#db, id);
  }

  /** LISTEN/NOTIFY on the store's one listening connection, dispatched by run id. */
  subscribe(runId: string, listener: () => void): () => void {
    return this.#hub.subscribe(runId, listener);
  }

  /** Ends the listening connection, and the pool if the store created it (a pool passed in stays open). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#hub.close();
    if (this.#ownsPool) await this.#db.pool.end();
  }
}
