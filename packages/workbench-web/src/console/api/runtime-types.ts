// keel-web's wire, its answers and the request bodies the console sends, comes from @keel/protocol/runtime:
// the console and the server cannot disagree on a field. Only the console's own pairing of an event with its
// stream id is written here.
import type { RunEvent } from '@keel/protocol/runtime';

export type {
  Approval,
  ApprovalStatus,
  Artifact,
  ArtifactWithContent,
  Checkpoint,
  CheckpointList,
  CheckpointSummary,
  ConfigStatus,
  Directory,
  NewProject,
  NewTask,
  Project,
  ProjectInit,
  ProjectPage,
  ProjectUpdate,
  Run,
  RunAgent,
  RunDetail,
  RunEvent,
  RunEventType,
  RunMetrics,
  RunPage,
  RunRecord,
  RunRequest as RunStart,
  RunStatus,
  ServerInfo,
  Step,
  StepKind,
  Task,
  TaskPage,
  TaskUpdate,
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
