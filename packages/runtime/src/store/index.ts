export type {
  Approval,
  ApprovalDecision,
  ApprovalKind,
  ApprovalQuery,
  ApprovalStatus,
  Artifact,
  AuditEntry,
  AuditQuery,
  BlobStore,
  Checkpoint,
  Claim,
  ControlKind,
  JsonObject,
  JsonValue,
  NewApproval,
  NewArtifact,
  NewAuditEntry,
  NewRun,
  NewStep,
  Run,
  RunEventRecord,
  RunQuery,
  RunStatus,
  RunStore,
  RunTransition,
  RunUsage,
  Step,
  StepKind,
  StepStatus,
  UserInput,
} from './contract.ts';
export { finishedStatuses, runStatuses } from './contract.ts';
export { newId } from './ids.ts';
export type { Session, SessionDetail, SessionMessage } from './session-store.ts';
export { localTimestamp, SessionStore } from './session-store.ts';
export type { SqliteRunStoreOptions } from './sqlite/index.ts';
export { openSqlite, openSqliteRunStore, SqliteRunStore } from './sqlite/index.ts';
