import { z } from 'zod';
import { errorObject, timestamp, usage } from './common.ts';
import {
  findingSeverities,
  mergeRequestProviders,
  repositoryProviders,
  sessionKinds,
  sessionStatuses,
  type TaskState,
  todoStatuses,
} from './names.ts';

/**
 * A task's state, open on the wire: one of the spec's `taskStates`, or a state a stage registered beyond the
 * five adds (README "Adding a stage"); the service writes only its registry's (GET /api/flow lists them).
 */
export type FlowState = TaskState | (string & {});
export const taskState: z.ZodType<FlowState> = z.string().describe('A task state: GET /api/flow lists them.');

/** An image as lists and views show it: what it is and how big, not its data. */
export const taskImageInfo = z.object({
  media_type: z.string(),
  filename: z.string().optional(),
  bytes: z.number().int(),
});
export type TaskImageInfo = z.infer<typeof taskImageInfo>;

export const initStep = z.object({
  name: z.string(),
  status: z.enum(['pending', 'running', 'done', 'failed']),
  detail: z.string().optional(),
  error: z.string().optional(),
  /** A command's step (setup): the start and end of its output; the whole is on its event in the init session. */
  output: z.string().optional(),
});
export type InitStep = z.infer<typeof initStep>;
export type StepStatus = InitStep['status'];

export const initProgress = z.object({
  status: z.enum(['idle', 'running', 'done', 'failed']),
  steps: z.array(initStep),
});
export type InitProgress = z.infer<typeof initProgress>;

/** One repository's isolated copy in the task's work directory. */
export const workspace = z.object({
  repository: z.string(),
  dir: z.string(),
  branch: z.string(),
  base_commit: z.string(),
  base_branch: z.string(),
  origin_url: z.string().nullable(),
});
export type Workspace = z.infer<typeof workspace>;

/** What submitting did in one repository. */
export const submitResult = z.object({
  repository: z.string(),
  changed: z.boolean(),
  branch: z.string(),
  commit: z.string().nullable(),
  provider: z.enum(repositoryProviders).optional(),
  mr_url: z.string().nullable().optional(),
  compare_url: z.string().nullable().optional(),
  /** The merge request: its link, or null with a `note` in words (a remote with no forge Keel knows). */
  merge_request: z.object({ url: z.string().nullable(), note: z.string().optional() }).optional(),
  error: errorObject.optional(),
});
export type SubmitResult = z.infer<typeof submitResult>;

/** One thing the reviewer found in the task's change. */
export const reviewFinding = z.object({
  id: z.string(),
  severity: z.enum(findingSeverities),
  repository: z.string().nullable(),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  message: z.string(),
  /** `open`, `dismissed` by the user, or turned into the follow-up todo `todo_id`. */
  status: z.enum(['open', 'dismissed', 'follow_up']),
  todo_id: z.string().nullable(),
});
export type ReviewFinding = z.infer<typeof reviewFinding>;

/** The reviewer's work at the start of stage 05: one round per pass through review. */
export const taskReview = z.object({
  status: z.enum(['running', 'done', 'failed']),
  round: z.number().int(),
  session_id: z.string().nullable(),
  findings: z.array(reviewFinding),
  /** Why the review failed (the runner's error, or an answer that was not a findings list). */
  error: z.string().nullable(),
  updated_at: timestamp,
});
export type TaskReview = z.infer<typeof taskReview>;

export const mergeRequestCheck = z.object({
  name: z.string(),
  status: z.enum(['pending', 'running', 'passed', 'failed', 'skipped', 'cancelled']),
  url: z.string().nullable(),
  summary: z.string().nullable(),
  /**
   * For a failed check, the failing part of what it reported, bounded to 8,000 characters (GitHub: the
   * check run's output title, summary and text plus its annotations; GitLab: the end of the job's trace);
   * null when there is none or it could not be read. Absent for a check that did not fail.
   */
  log: z.string().nullable().optional(),
});
export type MergeRequestCheck = z.infer<typeof mergeRequestCheck>;

export const mergeRequestComment = z.object({
  id: z.string(),
  author: z.string(),
  body: z.string(),
  /** The file a review comment is on; null for a conversation comment. */
  path: z.string().nullable(),
  line: z.number().int().nullable(),
  url: z.string().nullable(),
  created_at: timestamp,
});
export type MergeRequestComment = z.infer<typeof mergeRequestComment>;

/** What the provider answered about a merge request when it was last read. */
export const mergeRequestStatus = z.object({
  provider: z.enum(mergeRequestProviders),
  url: z.string(),
  number: z.number().int(),
  state: z.enum(['open', 'merged', 'closed']),
  head_sha: z.string().nullable(),
  checks: z.array(mergeRequestCheck),
  checks_state: z.enum(['none', 'pending', 'passed', 'failed']),
  comments: z.array(mergeRequestComment),
  read_at: timestamp,
});
export type MergeRequestStatus = z.infer<typeof mergeRequestStatus>;

/** A submitted merge request as the workbench follows it (its provider's answer, or why it could not read it). */
export const followedMergeRequest = z.object({
  repository: z.string(),
  provider: z.enum(mergeRequestProviders),
  url: z.string(),
  status: mergeRequestStatus.nullable(),
  /** Why the last read failed; the service tries again later. */
  error: z.string().nullable(),
  /** Whether the service still reads it (false once merged or closed). */
  following: z.boolean(),
  checked_at: timestamp.nullable(),
});
export type FollowedMergeRequest = z.infer<typeof followedMergeRequest>;

/** `GET /api/tasks/{id}/merge-requests` and its refresh. */
export const taskMergeRequests = z.object({
  task_id: z.string(),
  merge_requests: z.array(followedMergeRequest),
});
export type TaskMergeRequests = z.infer<typeof taskMergeRequests>;

/** Where a todo came from: the plan (or a hand edit), a follow-up written out, a review finding, or the MR. */
export const todoOrigin = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('plan') }),
  z.object({ kind: z.literal('user') }),
  z.object({ kind: z.literal('review'), finding_id: z.string() }),
  z.object({
    kind: z.literal('merge_request'),
    repository: z.string(),
    check: z.string().optional(),
    comment_id: z.string().optional(),
  }),
]);
export type TodoOrigin = z.infer<typeof todoOrigin>;

/**
 * How a check ended: `passed`; `failed` (it ran and said no: the code's doing, which a repair turn may fix);
 * `environment` (it could not do its job: a command, module or script missing, refused by the command
 * policy; not the change's fault, so never sent to the agent as a repair turn).
 */
export const checkOutcomes = ['passed', 'failed', 'environment'] as const;
export type CheckOutcome = (typeof checkOutcomes)[number];

/** One check run on a todo's changes, or on the task's workspace for its baseline. */
export const checkResult = z.object({
  repository: z.string(),
  name: z.string(),
  command: z.string(),
  /** `outcome` is `passed`. */
  passed: z.boolean(),
  outcome: z.enum(checkOutcomes),
  /** For `environment`: what is missing, in a few words ("command `vitest` not found"); else null. */
  reason: z.string().nullable(),
  /**
   * On a todo's result: how the same check (repository, name and command) ended in the task's baseline;
   * null when it has none. A check that was already `failed` there does not fail the todo.
   */
  baseline: z.enum(checkOutcomes).nullable().optional(),
  /** null when it did not run to an exit (refused by the command policy, timed out, killed). */
  exit_code: z.number().int().nullable(),
  duration_ms: z.number(),
  /** The end of its output (or why it did not run). */
  output: z.string(),
});
export type CheckResult = z.infer<typeof checkResult>;

/**
 * The repositories' checks run once on the workspace before a todo changes it: before the task's first
 * todo, again before a todo while it holds an environment problem, and on request
 * (`POST /api/tasks/{id}/baseline`).
 */
export const checksBaseline = z.object({
  status: z.enum(['running', 'done', 'failed']),
  /** Every repository's checks (those with none have no result). */
  results: z.array(checkResult),
  /** Why it could not be taken (a snapshot that failed), for `failed`. */
  error: z.string().nullable(),
  started_at: timestamp,
  ended_at: timestamp.nullable(),
});
export type ChecksBaseline = z.infer<typeof checksBaseline>;

/**
 * One run of a todo's checks: after its own turn (`repair` 0) or after repair turn n. A todo keeps every run
 * of its latest execution, so a failure a repair fixed stays readable.
 */
export const checkRun = z.object({
  repair: z.number().int(),
  passed: z.boolean(),
  results: z.array(checkResult),
  at: timestamp,
});
export type CheckRun = z.infer<typeof checkRun>;

/**
 * Why a failed todo failed, when a code says it; its `error` says it in words. `STOPPED`: the user stopped
 * its turn (or cancelled the task), which is no failure of the work, and the page shows it as such.
 */
export const todoErrorCodes = ['ENVIRONMENT_ERROR', 'CHECKS_FAILED', 'STOPPED'] as const;
export type TodoErrorCode = (typeof todoErrorCodes)[number];

export const todo = z.object({
  id: z.string(),
  task_id: z.string(),
  position: z.number().int(),
  title: z.string(),
  description: z.string(),
  expected_output: z.string(),
  status: z.enum(todoStatuses),
  session_id: z.string().nullable(),
  /** Snapshot commit per repository before the todo first ran (a retry restores it), and after. */
  before: z.record(z.string(), z.string()).nullable(),
  after: z.record(z.string(), z.string()).nullable(),
  /** The repositories' checks run after its last turn (null: none ran). */
  checks: z.array(checkResult).nullable(),
  /** Every run of its checks in its latest execution, oldest first: failed → repair 1 → passed. */
  check_runs: z.array(checkRun),
  origin: todoOrigin,
  error: z.string().nullable(),
  /**
   * `ENVIRONMENT_ERROR`: a check could not run (see the checks' `reason`); no repair turn was spent, and
   * the fix is the environment's (setup) or the check's (the project's settings). `CHECKS_FAILED`: checks
   * the change broke still fail after the repair turns. null otherwise.
   */
  error_code: z.enum(todoErrorCodes).nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Todo = z.infer<typeof todo>;

/** A PRD link the plan's first draft could not read, and why in words. */
export const prdLinkError = z.object({ url: z.string(), message: z.string() });
export type PrdLinkError = z.infer<typeof prdLinkError>;

/** A task's session as the task shows it: enough to follow it, its log by its id. */
export const taskSessionSummary = z.object({
  id: z.string(),
  kind: z.enum(sessionKinds),
  status: z.enum(sessionStatuses),
  busy: z.boolean(),
  error: errorObject.nullable(),
  ended_at: timestamp.nullable(),
  /** Its tokens (and cost, where the runner knows the model's price) over all its turns. */
  usage: usage.nullable(),
});

/** A todo as its task shows it: with its session's tokens and cost (null before it ran). */
export const taskTodo = todo.extend({ usage: usage.nullable() });

/** A task as every task route answers it: its record, its plan and todos, and the actions it allows now. */
export const task = z.object({
  id: z.string(),
  project_id: z.string(),
  description: z.string(),
  prd_links: z.array(z.string()),
  images: z.array(taskImageInfo),
  runner: z.string().nullable(),
  branch: z.string(),
  state: taskState,
  /** The state a cancelled task returns to when reopened. */
  cancelled_from: taskState.nullable(),
  init: initProgress,
  workspaces: z.array(workspace),
  plan_session_id: z.string().nullable(),
  review_session_id: z.string().nullable(),
  init_session_id: z.string().nullable(),
  commit_message: z.string().nullable(),
  /** The merge request's title and description as edited in review (null: from the commit message). */
  mr_title: z.string().nullable(),
  mr_description: z.string().nullable(),
  results: z.array(submitResult).nullable(),
  /** The PRD links the latest first plan draft could not read (it was written without them). */
  prd_link_errors: z.array(prdLinkError),
  /** The reviewer's findings on the change (null until the task first reaches review). */
  review: taskReview.nullable(),
  /** The submitted merge requests, followed until merged or closed (null before submit). */
  merge_requests: z.array(followedMergeRequest).nullable(),
  /** The checks on the workspace before the todos changed it (null until the first todo runs). */
  baseline: checksBaseline.nullable(),
  error: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  /** `{WORKBENCH_HOME}/tasks/{task_id}/`. */
  work_dir: z.string(),
  /** plan.md, or null before the first draft. */
  plan: z.string().nullable(),
  todos: z.array(taskTodo),
  sessions: z.array(taskSessionSummary),
  /** Tokens and cost of every session of the task (its todos' too), where counted; null before any. */
  usage: usage.nullable(),
  /** The actions of the table of moves allowed in its state now. */
  allowed_actions: z.array(z.string()),
});
export type TaskSessionSummary = z.infer<typeof taskSessionSummary>;
export type Task = z.infer<typeof task>;

export const taskList = z.object({ tasks: z.array(task) });
export const todoList = z.object({ todos: z.array(todo) });

/** One version of plan.md: a plan turn's answer (`ai`) or a save by hand (`user`). */
export const planVersion = z.object({
  task_id: z.string(),
  version: z.number().int(),
  content: z.string(),
  source: z.enum(['ai', 'user']),
  session_id: z.string().nullable(),
  created_at: timestamp,
});
export type PlanVersion = z.infer<typeof planVersion>;

/** `GET /api/tasks/{id}/plan/diff`: the unified diff of plan.md between two versions. */
export const planDiff = z.object({
  task_id: z.string(),
  from: z.number().int(),
  to: z.number().int(),
  patch: z.string(),
  additions: z.number().int(),
  deletions: z.number().int(),
});
export type PlanDiff = z.infer<typeof planDiff>;

/** `GET /api/flow`: the stages with their states and the table of moves, as the service defines them. */
export const flow = z.object({
  stages: z.array(
    z.object({ number: z.string(), key: z.string(), title: z.string(), states: z.array(taskState) }),
  ),
  /** The spec's task states, then those registered stages add. */
  states: z.array(taskState),
  moves: z.array(
    z.object({
      action: z.string(),
      by: z.enum(['user', 'system']),
      from: z.array(taskState),
      /** A state, or `previous` (the state a task was cancelled from) or `same`. */
      to: z.union([taskState, z.enum(['previous', 'same'])]),
      trigger: z.string(),
    }),
  ),
});
export type Flow = z.infer<typeof flow>;
