import type {
  ChecksBaseline,
  FollowedMergeRequest,
  InitProgress,
  PrdLinkError,
  SubmitResult,
  TaskImage,
  TaskReview,
  Workspace,
} from '@keel/protocol/workbench';

export {
  commitMessageBody,
  findingParams,
  followUpBody,
  maxImageChars,
  maxImages,
  messageBody,
  planBody,
  planDiffQuery,
  submitBody,
  type TaskImage,
  taskCreateSchema,
  taskListQuery,
  taskUpdateSchema,
  todoCreateBody,
  todoOrderBody,
  todoParams,
  todoUpdateBody,
  versionParams,
} from '@keel/protocol/workbench';

import type { TaskState } from './states.ts';

export {
  type FindingSeverity,
  type FollowedMergeRequest,
  findingSeverities,
  type InitProgress,
  type InitStep,
  type PlanVersion,
  type PrdLinkError,
  type ReviewFinding,
  type StepStatus,
  type SubmitResult,
  type TaskImageInfo,
  type TaskReview,
  type Todo,
  type TodoOrigin,
  type TodoStatus,
  todoStatuses,
  type Workspace,
} from '@keel/protocol/workbench';

export interface Task {
  id: string;
  project_id: string;
  description: string;
  prd_links: string[];
  images: TaskImage[];
  runner: string | null;
  branch: string;
  state: TaskState;
  cancelled_from: TaskState | null;
  init: InitProgress;
  workspaces: Workspace[];
  plan_session_id: string | null;
  review_session_id: string | null;
  init_session_id: string | null;
  commit_message: string | null;
  /** The MR's title and description as the user edited them in review (null: from the commit message). */
  mr_title: string | null;
  mr_description: string | null;
  results: SubmitResult[] | null;
  /** The PRD links the latest first plan draft could not read (it was written without them); [] when all were read. */
  prd_link_errors: PrdLinkError[];
  /** The reviewer's findings on the change (null until the task first reaches review). */
  review: TaskReview | null;
  /** The submitted merge requests, followed until merged or closed (null before submit). */
  merge_requests: FollowedMergeRequest[] | null;
  /** The checks on the workspace before the todos changed it (null until the first todo runs). */
  baseline: ChecksBaseline | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}
