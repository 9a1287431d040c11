// The workbench service's resources as its API answers them (packages/workbench/README.md). Written out
// here rather than imported: the service's types live beside Node-only code.

export const runnerKinds = ['keel', 'claude-code', 'codex', 'gemini', 'opencode', 'cursor', 'acp'] as const;
export type RunnerKind = (typeof runnerKinds)[number];

export interface RunnerConfig {
  id: string;
  name: string;
  kind: RunnerKind;
  binary_path?: string;
  model?: string;
  extra_args: string[];
  env: Record<string, string>;
}

export interface McpServer {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  enabled: boolean;
}

export interface Settings {
  model: string | null;
  base_url: string | null;
  default_runner: string;
  runner_configs: RunnerConfig[];
  mcp_servers: McpServer[];
  github_api_url: string;
  /** GitLab's API root (default https://gitlab.com/api/v4): merge requests are followed through it. */
  gitlab_api_url?: string;
  api_key_set: boolean;
  github_token_set: boolean;
  gitlab_token_set?: boolean;
  builtin_runner_configs: RunnerConfig[];
  /** Where PRD links may be fetched from besides public hosts. */
  prd_links?: { allow_private_network: boolean; allowed_hosts: string[] };
  /** Who authors commits where the source repository's git names nobody. */
  git_identity?: GitIdentity;
  /** In a PUT's answer: secrets removed because their address changed without them (they are bound to it). */
  cleared_secrets?: ('api_key' | 'github_token' | 'gitlab_token')[];
  /** In a PUT's answer, with `cleared_secrets`: what to send again. */
  message?: string;
}

export interface SettingsUpdate {
  model?: string | null;
  base_url?: string | null;
  api_key?: string | null;
  default_runner?: string;
  runner_configs?: RunnerConfig[];
  mcp_servers?: McpServer[];
  github_token?: string | null;
  github_api_url?: string;
  gitlab_token?: string | null;
  gitlab_api_url?: string;
  prd_links?: { allow_private_network?: boolean; allowed_hosts?: string[] };
  git_identity?: GitIdentity;
}

export interface GitIdentity {
  name: string | null;
  email: string | null;
}

/** `POST /api/settings/test-connection`: unsaved values to test (the saved ones where absent). */
export interface ConnectionTestInput {
  base_url?: string;
  api_key?: string;
  model?: string;
}

export interface ConnectionTest {
  ok: boolean;
  base_url: string | null;
  models: string[];
  /** Whether the model is in the list; absent without a model. */
  model_found?: boolean;
  error?: { message: string };
}

export interface RunnerAvailability {
  kind: RunnerKind;
  config_id?: string;
  usable: boolean;
  version?: string;
  reason?: string;
}

export interface SettingsCheck {
  ready: boolean;
  missing: string[];
  /** Why a missing item is missing, when the service knows (a secret cleared by an address change). */
  reasons?: Record<string, string>;
  runners: RunnerAvailability[];
}

export const repositoryTypes = ['frontend', 'backend', 'custom'] as const;
export type RepositoryType = (typeof repositoryTypes)[number];

export interface Repository {
  path: string;
  type: RepositoryType;
  name: string;
  provider?: 'gitlab' | 'github' | 'other';
  /** Its verification commands, run after each todo that changed it. */
  checks?: CheckSetting[];
}

/** A repository's check as the project stores it. */
export interface CheckSetting {
  name: string;
  command: string;
  timeout_ms?: number;
}

export type ProjectStatus = 'CREATED' | 'INITIALIZING' | 'READY' | 'FAILED';

export interface Project {
  id: string;
  name: string;
  description: string;
  repositories: Repository[];
  default_runner: string | null;
  /** Whether its repositories' .runtime/config.json apply their security-relevant keys in its Keel runs. */
  trust_repository_config: boolean;
  /** Turns a todo gets to fix its failing checks before it is failed. */
  repair_turns?: number;
  /** The runner config of stage 05's reviewer (null: the task's own runner). */
  review_runner?: string | null;
  status: ProjectStatus;
  error: string | null;
  created_at: string;
  updated_at: string;
}

/** `PUT /api/projects/{id}` beside the other project settings. */
export interface ProjectTrustUpdate {
  trust_repository_config?: boolean;
  review_runner?: string | null;
}

/** `PUT /api/projects/{id}`: each named repository's checks (replaced as a whole), the repair bound. */
export interface ProjectChecksUpdate {
  checks?: Record<string, CheckSetting[]>;
  repair_turns?: number;
}

/** One key of a repository's .runtime/config.json that applies only when the project trusts it. */
export interface RepositoryConfigAsk {
  file: string;
  key: string;
  /** Secrets masked by the service. */
  value: unknown;
  kind: string;
  why: string;
}

export interface RepositoryConfigReport {
  repository: string;
  path: string;
  file: string;
  /** Whether the project's Keel runs apply these keys now. */
  trusted: boolean;
  asks: RepositoryConfigAsk[];
  error?: { code: string; message: string };
}

/** `GET /api/projects/{id}/repository-config`. */
export interface ProjectRepositoryConfig {
  project_id: string;
  trust_repository_config: boolean;
  repositories: RepositoryConfigReport[];
}

export interface ProjectCreate {
  name: string;
  description?: string;
  repositories: { path: string; type: RepositoryType; name?: string }[];
  default_runner?: string | null;
}

export const knowledgeLayers = ['structure', 'business_flow', 'modules', 'index'] as const;
export type KnowledgeLayer = (typeof knowledgeLayers)[number];
export type KnowledgeStatus = 'pending' | 'running' | 'done' | 'failed';

export interface KnowledgeLayerView {
  repository: string;
  layer: KnowledgeLayer;
  status: KnowledgeStatus;
  error: string | null;
  session_id: string | null;
  content: string | null;
}

export interface Knowledge {
  project_id: string;
  status: ProjectStatus;
  layers: KnowledgeLayerView[];
  project_md: string | null;
  constitution_md: string | null;
}

export type TaskState =
  | 'CREATED'
  | 'INITIALIZING'
  | 'PLANNING'
  | 'PLAN_LOCKED'
  | 'TODO_READY'
  | 'CODING'
  | 'REVIEWING'
  | 'DONE'
  | 'CANCELLED';

/** `GET /api/flow`: the stages with their states and the table of moves, as the service defines them. */
export interface Flow {
  stages: { number: string; key: string; title: string; states: TaskState[] }[];
  states: TaskState[];
  moves: { action: string; by: 'user' | 'system'; from: TaskState[]; to: string; trigger: string }[];
}

export interface InitStep {
  name: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  detail?: string;
  error?: string;
}

export interface SubmitResult {
  repository: string;
  changed: boolean;
  branch: string;
  commit: string | null;
  provider?: 'gitlab' | 'github' | 'other';
  mr_url?: string | null;
  compare_url?: string | null;
  /** The merge request: its link, or null with a `note` in words (a remote with no forge Keel knows). */
  merge_request?: { url: string | null; note?: string };
  error?: ErrorObject;
}

export type TodoStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

export interface Todo {
  id: string;
  task_id: string;
  position: number;
  title: string;
  description: string;
  expected_output: string;
  status: TodoStatus;
  session_id: string | null;
  /** The repositories' checks run after its last turn (null: none ran). */
  checks?: CheckResult[] | null;
  /** Where it came from: the plan, or a follow-up (a review finding, the merge request, written out). */
  origin?: TodoOrigin;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export type TodoOrigin =
  | { kind: 'plan' }
  | { kind: 'user' }
  | { kind: 'review'; finding_id: string }
  | { kind: 'merge_request'; repository: string; check?: string; comment_id?: string };

export type FindingSeverity = 'error' | 'warning' | 'info';

/** One thing the reviewer found in the task's change. */
export interface ReviewFinding {
  id: string;
  severity: FindingSeverity;
  repository: string | null;
  file: string | null;
  line: number | null;
  message: string;
  /** `open`, `dismissed` by the user, or turned into the follow-up todo `todo_id`. */
  status: 'open' | 'dismissed' | 'follow_up';
  todo_id: string | null;
}

/** The reviewer's work at the start of stage 05: one round per pass through review. */
export interface TaskReview {
  status: 'running' | 'done' | 'failed';
  round: number;
  session_id: string | null;
  findings: ReviewFinding[];
  /** Why the review failed (the runner's error, or an answer that was not a findings list). */
  error: string | null;
  updated_at: string;
}

export interface MergeRequestCheck {
  name: string;
  status: 'pending' | 'running' | 'passed' | 'failed' | 'skipped' | 'cancelled';
  url: string | null;
  summary: string | null;
}

export interface MergeRequestComment {
  id: string;
  author: string;
  body: string;
  /** The file a review comment is on; null for a conversation comment. */
  path: string | null;
  line: number | null;
  url: string | null;
  created_at: string;
}

/** What the provider answered about a merge request when it was last read. */
export interface MergeRequestStatus {
  provider: 'github' | 'gitlab';
  url: string;
  number: number;
  state: 'open' | 'merged' | 'closed';
  head_sha: string | null;
  checks: MergeRequestCheck[];
  checks_state: 'none' | 'pending' | 'passed' | 'failed';
  comments: MergeRequestComment[];
  read_at: string;
}

/** A submitted merge request as the workbench follows it (its provider's answer, or why it could not read it). */
export interface FollowedMergeRequest {
  repository: string;
  provider: 'github' | 'gitlab';
  url: string;
  status: MergeRequestStatus | null;
  /** Why the last read failed; the service tries again later. */
  error: string | null;
  /** Whether the service still reads it (false once merged or closed). */
  following: boolean;
  checked_at: string | null;
}

/** `POST /api/tasks/{id}/follow-up`: what becomes new todos at the end of the list. */
export interface FollowUpInput {
  findings?: string[];
  merge_request?: ({ repository: string; check: string } | { repository: string; comment_id: string })[];
  todos?: { title: string; description?: string; expected_output?: string }[];
}

/** One check run on a todo's changes. */
export interface CheckResult {
  repository: string;
  name: string;
  command: string;
  passed: boolean;
  exit_code: number | null;
  duration_ms: number;
  /** The end of its output. */
  output: string;
}

export interface Task {
  id: string;
  project_id: string;
  description: string;
  prd_links: string[];
  images: { media_type: string; filename?: string; bytes: number }[];
  runner: string | null;
  branch: string;
  state: TaskState;
  cancelled_from: TaskState | null;
  init: { status: 'idle' | 'running' | 'done' | 'failed'; steps: InitStep[] };
  plan_session_id: string | null;
  review_session_id: string | null;
  init_session_id: string | null;
  commit_message: string | null;
  /** The merge request's title and description as edited in review (null: from the commit message). */
  mr_title?: string | null;
  mr_description?: string | null;
  results: SubmitResult[] | null;
  /** The PRD links the latest first plan draft could not read (it was written without them). */
  prd_link_errors?: PrdLinkError[];
  /** The reviewer's findings on the change (null until the task first reaches review). */
  review?: TaskReview | null;
  /** The submitted merge requests, followed until merged or closed (null before submit). */
  merge_requests?: FollowedMergeRequest[] | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  work_dir: string;
  plan: string | null;
  todos: Todo[];
  allowed_actions: string[];
}

/** One version of plan.md: a plan turn's answer (`ai`) or a save by hand (`user`). */
export interface PlanVersion {
  task_id: string;
  version: number;
  content: string;
  source: 'ai' | 'user';
  session_id: string | null;
  created_at: string;
}

/** `GET /api/tasks/{id}/plan/diff`: the unified diff of plan.md between two versions. */
export interface PlanDiff {
  task_id: string;
  from: number;
  to: number;
  patch: string;
  additions: number;
  deletions: number;
}

/** A todo added by hand (position 1-based, default the end). */
export interface TodoInput {
  title: string;
  description?: string;
  expected_output?: string;
  position?: number;
}

export type TodoPatch = Partial<Pick<Todo, 'title' | 'description' | 'expected_output'>>;

/** The commit message and the merge request's title and description, by hand (null: from the message). */
export interface CommitMessageEdit {
  commit_message?: string;
  mr_title?: string | null;
  mr_description?: string | null;
}

export interface TaskImageInput {
  data: string;
  media_type: string;
  filename?: string;
}

export interface TaskCreate {
  project_id: string;
  description: string;
  prd_links?: string[];
  images?: TaskImageInput[];
  runner?: string | null;
  branch?: string;
}

export type { FileChange, RepositoryDiff, TaskDiff, TodoDiff } from './diff-types.ts';

export type SessionStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface ErrorObject {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface Session {
  id: string;
  kind: 'knowledge' | 'task_init' | 'plan' | 'coding' | 'reviewer' | 'review' | 'conversation';
  owner_id: string | null;
  status: SessionStatus;
  runner: RunnerKind | null;
  runner_config_id: string;
  error: ErrorObject | null;
  usage: Usage | null;
  last_seq: number;
  /** Work was accepted and has not ended (the turn, the work before it, or its queued messages). */
  busy?: boolean;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
}

/** A chat message waiting for its session's turn to end (`GET /api/sessions/{id}/queue`). */
export interface QueuedMessage {
  id: string;
  content: string;
  queued_at: string;
}

/** The 202 of `POST /api/sessions/{id}/messages`: a turn now, or queued behind the running one. */
export interface SentMessage {
  session_id: string;
  message_id: string;
  queued: boolean;
  position?: number;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_usd?: number;
}

export type ToolKind =
  | 'file_read'
  | 'file_edit'
  | 'command'
  | 'search'
  | 'web'
  | 'plan'
  | 'todo'
  | 'mcp'
  | 'other';

export type SessionEvent =
  | { type: 'runner_started'; runner: RunnerKind; runner_session_id?: string; run_id?: string }
  | { type: 'thinking'; content: string }
  | { type: 'text_delta'; content: string }
  | { type: 'message'; role: 'assistant' | 'user'; content: string }
  | {
      type: 'tool_call';
      tool_call_id: string;
      tool_name: string;
      kind: ToolKind;
      args: Record<string, unknown>;
      path?: string;
    }
  | {
      type: 'tool_result';
      tool_call_id: string;
      tool_name: string;
      kind: ToolKind;
      ok: boolean;
      result: string;
    }
  | { type: 'usage'; usage: Usage }
  | { type: 'retry'; attempt: number; max_attempts: number; error: string }
  | { type: 'error'; error: ErrorObject }
  | {
      type: 'step';
      step: string;
      status: 'running' | 'done' | 'failed';
      detail?: string;
      error?: ErrorObject;
    };

export interface LogEntry {
  seq: number;
  timestamp: string;
  event: SessionEvent;
}

export interface LogPage {
  session_id: string;
  entries: LogEntry[];
  next_cursor: number;
  has_more: boolean;
}

/** `GET /api/directories`: one directory of the workbench's machine, for picking repositories. */
export interface DirectoryListing {
  path: string;
  parent: string | null;
  entries: { name: string; path: string; is_dir: boolean; is_git_repo: boolean }[];
  /** How many entries the folder has in all; `truncated` when only the first ones are listed. */
  total?: number;
  truncated?: boolean;
}

/** A PRD link the plan's first draft could not read, and why in words. */
export interface PrdLinkError {
  url: string;
  message: string;
}

/** `POST /api/settings/mcp-servers/{name}/health`: the saved server started, its tools listed, stopped. */
export interface McpHealth {
  name: string;
  ok: boolean;
  tool_count: number;
  tools: string[];
  error?: { message: string };
}
