// The workbench service's wire comes from @keel/protocol (the schemas the service answers through), so the
// SPA and the service cannot disagree on a field. The request bodies not in the protocol yet are written here.
import type { GitIdentity, McpServer, ProjectUpdate, RunnerConfig } from '@keel/protocol/workbench';

export type {
  CheckInput,
  CheckResult,
  CheckSetting,
  CommitMessageEdit,
  ConnectionTest,
  DirectoryListing,
  ErrorObject,
  FileChange,
  FileDiff,
  FindingSeverity,
  Flow,
  FollowedMergeRequest,
  FollowUpInput,
  GitIdentity,
  InitStep,
  Knowledge,
  KnowledgeLayer,
  KnowledgeLayerView,
  LogEntry,
  LogPage,
  McpHealth,
  McpServer,
  MergeRequestCheck,
  MergeRequestComment,
  MergeRequestStatus,
  PlanDiff,
  PlanVersion,
  PrdLinkError,
  Project,
  ProjectCreate,
  ProjectRepositoryConfig,
  ProjectStatus,
  ProjectUpdate,
  QueuedMessage,
  Repository,
  RepositoryConfigAsk,
  RepositoryConfigReport,
  RepositoryDiff,
  RepositoryType,
  ReviewFinding,
  RunnerAvailability,
  RunnerConfig,
  RunnerKind,
  SentMessage,
  Session,
  SessionEvent,
  SessionStatus,
  Settings,
  SettingsCheck,
  SubmitResult,
  Task,
  TaskCreate,
  TaskDiff,
  TaskImageInfo,
  TaskImageInput,
  TaskReview,
  TaskState,
  Todo,
  TodoDiff,
  TodoInput,
  TodoOrigin,
  TodoPatch,
  TodoStatus,
  ToolKind,
  Usage,
} from '@keel/protocol/workbench';
export { knowledgeLayers, repositoryTypes, runnerKinds } from '@keel/protocol/workbench/names';

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

/** `POST /api/settings/test-connection`: unsaved values to test (the saved ones where absent). */
export interface ConnectionTestInput {
  base_url?: string;
  api_key?: string;
  model?: string;
}

/** `PUT /api/projects/{id}` beside the other project settings. */
export type ProjectTrustUpdate = Pick<ProjectUpdate, 'trust_repository_config' | 'review_runner'>;

/** `PUT /api/projects/{id}`: each named repository's checks (replaced as a whole), the repair bound. */
export type ProjectChecksUpdate = Pick<ProjectUpdate, 'checks' | 'repair_turns'>;
