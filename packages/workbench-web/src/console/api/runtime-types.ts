// keel-web's wire comes from @keel/protocol/runtime (the schemas keel-web answers through), so the console
// and the server cannot disagree on a field. Only the request bodies the console builds, and its own pairing
// of an event with its stream id, are written here.
import type { RunEvent } from '@keel/protocol/runtime';

export type {
  Approval,
  ApprovalStatus,
  Artifact,
  ArtifactWithContent,
  Checkpoint,
  CheckpointSummary,
  ConfigStatus,
  Directory,
  Project,
  ProjectInit,
  ProjectPage,
  Run,
  RunAgent,
  RunDetail,
  RunEvent,
  RunEventType,
  RunMetrics,
  RunPage,
  RunRecord,
  RunStatus,
  ServerInfo,
  Step,
  StepKind,
  Task,
  TaskPage,
  Timeline,
  TimelineEntry,
  ToolInfo,
  ToolTraitKind,
  Usage as RunUsage,
  UserInput,
} from '@keel/protocol/runtime';
// The plain lists, without the schema library: the console's bundle does not load zod.
export { finishedStatuses, runStatuses } from '@keel/protocol/runtime/names';

/** One event of a run with its gapless sequence number (the SSE message's `id`). */
export interface RunEventRecord {
  seq: number;
  event: RunEvent;
}

/** The run request fields the console's form sends (spec section 2). */
export interface RunStart {
  prompt: string;
  workdir: string;
  /** Continue this session (a project's or a task's). */
  session_id?: string;
  model?: string;
  enable_thinking?: boolean;
  max_tokens?: unknown;
  max_cost_usd?: unknown;
  max_steps?: unknown;
}

/** `POST /api/projects`. */
export interface NewProject {
  name: string;
  workdir: string;
  description?: string;
  code_paths?: string[];
}

/** `PUT /api/projects/{id}`: the fields given change, the others stay. */
export type ProjectUpdate = Partial<NewProject>;

/** `POST /api/projects/{id}/tasks`. */
export interface NewTask {
  name: string;
  branch_name: string;
}

/** `PUT /api/tasks/{id}`: rename it, or move it to another branch (created or switched to). */
export type TaskUpdate = Partial<NewTask>;
