// The records of the store contract, one file per record; store/contract.ts is their public face.
export type {
  Approval,
  ApprovalDecision,
  ApprovalKind,
  ApprovalQuery,
  ApprovalStatus,
  NewApproval,
} from './approval.ts';
export type { Artifact, NewArtifact } from './artifact.ts';
export type { AuditEntry, AuditQuery, NewAuditEntry } from './audit.ts';
export type { ControlKind, RunEventRecord, RunEventText } from './event.ts';
export type { UserInput } from './input.ts';
export type { JsonObject, JsonValue } from './json.ts';
export type {
  NewProject,
  NewTask,
  Project,
  ProjectChange,
  ProjectQuery,
  Task,
  TaskChange,
} from './project.ts';
export type {
  Claim,
  NewRun,
  OrphanClaim,
  Run,
  RunAgent,
  RunQuery,
  RunStatus,
  RunTransition,
  RunUsage,
  SubAgentType,
} from './run.ts';
export { finishedStatuses, runStatuses } from './run.ts';
export type { Checkpoint, NewCheckpoint, NewStep, Step, StepKind, StepStatus } from './step.ts';
