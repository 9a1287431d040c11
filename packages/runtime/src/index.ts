/**
 * @keel/runtime: Keel's embeddable coding-agent runtime.
 *
 * @example
 * import { createRuntime } from '@keel/runtime';
 * const runtime = createRuntime();
 * for await (const event of runtime.stream({ prompt: 'Explain src/index.ts' })) console.log(event.type);
 *
 * The SDK's classes that the runtime makes for you (`runtime.runs` is a RunsApi, `runtime.events` an
 * EventManager…) are exported as types. What only Keel's CLI and server use is `@keel/runtime/internal`.
 */
export type { AgentHooks, AgentState, BreakerLimits } from './agent/index.ts';
export type {
  AgentScope,
  AgentsApi,
  ConfiguredSpecialist,
  SpawnRequest,
  Specialist,
  SubAgent,
  SubAgentStatus,
} from './agents/index.ts';
export type {
  ConfigApproval,
  ConfigObject,
  ConfigReport,
  IgnoredConfigKey,
  PinChanges,
  ProjectConfigPin,
  ProjectTrust,
  RuntimeConfig,
  RuntimeEnv,
  TrustApplies,
  TrustKey,
  TrustKind,
} from './config/index.ts';
export { configFileAt, loadConfigReport, projectTrustKeys } from './config/index.ts';
export type { ErrorCode, ErrorObject } from './errors/index.ts';
export {
  AgentError,
  AgentLimitReachedError,
  AgentNotFoundError,
  ApprovalRejectedError,
  AuthenticationError,
  BudgetExceededError,
  CancelledError,
  CircuitBreakerError,
  ConfigError,
  httpStatusOf,
  InvalidParamsError,
  InvalidStateError,
  KeelError,
  ModelError,
  PermissionDeniedError,
  RecordNotFoundError,
  RunNotFoundError,
  SessionNotFoundError,
  SkillNotFoundError,
  StoreError,
  TimeoutError,
  ToolError,
  ToolNotFoundError,
  toErrorObject,
} from './errors/index.ts';
export type {
  EventManager,
  EventOf,
  EventType,
  RunMetadata,
  RuntimeEvent,
  ToolTrace,
  Usage,
} from './events/index.ts';
export { parseEvent } from './events/index.ts';
export type {
  McpClientPoolOptions,
  McpServerConfig,
  McpServerDefinition,
  McpServerEntry,
} from './mcp/index.ts';
export { createMcpTools, McpClientPool, resolveMcpServers, withMcpTools } from './mcp/index.ts';
export type { MemoryEntry } from './memory/index.ts';
export type { ChatMessage, ImagePayload, ModelSettings, RetryPolicy, ToolCall } from './model/index.ts';
export { ModelClient } from './model/index.ts';
export type {
  FieldIssue,
  NewProjectInput,
  NewTaskInput,
  ProjectCallOptions,
  ProjectChatMessage,
  ProjectsApi,
  ProjectUpdateInput,
  StartOptions,
  TasksApi,
  TaskUpdateInput,
} from './projects/index.ts';
export type { ExecutionOutcome, RunMetrics, Timeline, TimelineEntry, WorkflowResult } from './runs/index.ts';
export type {
  ApprovalsApi,
  ArtifactsApi,
  AuditApi,
  DriveOptions,
  FollowOptions,
  RunOptions,
  RunRequest,
  RunResult,
  RunsApi,
  RuntimeOptions,
  SkillChange,
  SkillQuery,
  SkillsApi,
  WorkOptions,
} from './runtime/index.ts';
export { createRuntime, Runtime, unconfinedCommandsNote } from './runtime/index.ts';
export type { Sandbox, SandboxCommand, SandboxSettings, SandboxStatus } from './sandbox/index.ts';
export { createSandbox, sandboxStatus } from './sandbox/index.ts';
export type {
  Skill,
  SkillDetail,
  SkillList,
  SkillScope,
  SkillSource,
  SkillWarning,
} from './skills/index.ts';
export { getSkill, listSkills, setSkillEnabled, skillNameProblem } from './skills/index.ts';
export type {
  Approval,
  ApprovalQuery,
  ApprovalStatus,
  Artifact,
  AuditEntry,
  BlobStore,
  Checkpoint,
  ControlKind,
  JsonObject,
  JsonValue,
  Project,
  ProjectQuery,
  Run,
  RunAgent,
  RunEventRecord,
  RunEventText,
  RunQuery,
  RunStatus,
  RunStore,
  Session,
  SessionDetail,
  SessionMessage,
  SessionStore,
  Step,
  SubAgentType,
  Task,
  UserInput,
} from './store/index.ts';
export { finishedStatuses, openSqliteRunStore, runStatuses } from './store/index.ts';
export type {
  CommandOutcome,
  CommandPolicyOptions,
  CommandVerdict,
  EditorFiles,
  FileChange,
  FileHistoryLimits,
  LspAccess,
  LspConfig,
  LspServersOptions,
  PathGuard,
  PathGuardOptions,
  Tool,
  ToolAuditRecord,
  ToolContext,
  ToolTraits,
  ToolWait,
  UnconfinedCommands,
  WebSettings,
} from './tools/index.ts';
export {
  CommandPolicy,
  createCodingTools,
  createPathGuard,
  defaultAllowedCommands,
  defineTool,
  FileHistory,
  LspServers,
  ToolRegistry,
} from './tools/index.ts';
export type {
  Budgets,
  GateReviewer,
  GraphTask,
  Predicate,
  SpecialistInfo,
  Workflow,
  WorkflowNode,
} from './workflow/index.ts';
