/**
 * @keel/runtime: Keel's embeddable coding-agent runtime.
 *
 * @example
 * import { createRuntime } from '@keel/runtime';
 * const runtime = createRuntime();
 * for await (const event of runtime.stream({ prompt: 'Explain src/index.ts' })) console.log(event.type);
 */
export type { AgentHooks, AgentState, BreakerLimits } from './agent/index.ts';
export { defaultBreakerLimits, deriveMetadata, executeAgent } from './agent/index.ts';
export type {
  AgentScope,
  ConfiguredSpecialist,
  SpawnRequest,
  Specialist,
  SubAgent,
  SubAgentStatus,
} from './agents/index.ts';
export {
  AgentsApi,
  createAgentTools,
  maxAgentTimeoutSeconds,
  spawnRequestSchema,
  subAgentStatuses,
  subAgentTypes,
} from './agents/index.ts';
export { FsBlobStore } from './artifacts/index.ts';
export type { ConfigObject, RuntimeConfig, RuntimeEnv } from './config/index.ts';
export {
  ConfigFile,
  configFileAt,
  configSchema,
  globalConfigPath,
  hiddenValue,
  hideSecrets,
  loadConfig,
  projectConfigPath,
  readEnv,
} from './config/index.ts';
export type { ErrorCode, ErrorObject } from './errors/index.ts';
export {
  AgentError,
  AgentLimitReachedError,
  AgentNotFoundError,
  ApprovalRejectedError,
  AuthenticationError,
  answerClientError,
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
export type { EventOf, EventType, RunMetadata, RuntimeEvent, ToolTrace, Usage } from './events/index.ts';
export { EventManager, eventSchemas, parseEvent } from './events/index.ts';
export type {
  McpClientPoolOptions,
  McpServerConfig,
  McpServerDefinition,
  McpServerEntry,
} from './mcp/index.ts';
export { createMcpTools, McpClientPool, resolveMcpServers, withMcpTools } from './mcp/index.ts';
export type { MemoryEntry } from './memory/index.ts';
export { maxEntriesPerCategory, memoryCategories, memoryDir, ProjectMemory } from './memory/index.ts';
export type { ChatMessage, ImagePayload, ModelSettings, RetryPolicy, ToolCall } from './model/index.ts';
export { ModelClient } from './model/index.ts';
export type {
  FieldIssue,
  NewProjectInput,
  NewTaskInput,
  ProjectCallOptions,
  ProjectChatMessage,
  ProjectUpdateInput,
  StartOptions,
  TaskUpdateInput,
} from './projects/index.ts';
export {
  guideFileName,
  invalidFields,
  newProjectSchema,
  newTaskSchema,
  ProjectsApi,
  projectUpdateSchema,
  TasksApi,
  taskUpdateSchema,
} from './projects/index.ts';
export type { ExecutionOutcome, RunMetrics, Timeline, TimelineEntry, WorkflowResult } from './runs/index.ts';
export { isOrphaned, RunControls } from './runs/index.ts';
export type {
  DriveOptions,
  RunOptions,
  RunRequest,
  RunResult,
  RuntimeOptions,
  SkillChange,
  SkillQuery,
  WorkOptions,
} from './runtime/index.ts';
export {
  ApprovalsApi,
  ArtifactsApi,
  AuditApi,
  createRuntime,
  normaliseWorkdir,
  parseRunRequest,
  RunsApi,
  Runtime,
  runRequestSchema,
  SkillsApi,
} from './runtime/index.ts';
export type { Sandbox, SandboxCommand, SandboxSettings, SandboxStatus } from './sandbox/index.ts';
export { BubblewrapSandbox, createSandbox, sandboxStatus } from './sandbox/index.ts';
export type {
  Skill,
  SkillDetail,
  SkillList,
  SkillScope,
  SkillSource,
  SkillWarning,
} from './skills/index.ts';
export {
  builtinSkillsDir,
  createSkillTools,
  getSkill,
  listSkills,
  setSkillEnabled,
  skillNameProblem,
  skillSources,
} from './skills/index.ts';
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
  Step,
  SubAgentType,
  Task,
  UserInput,
} from './store/index.ts';
export {
  finishedStatuses,
  newId,
  openSqlite,
  openSqliteRunStore,
  runStatuses,
  SessionStore,
  SqliteRunStore,
} from './store/index.ts';
export type {
  CommandOutcome,
  CommandPolicyOptions,
  CommandVerdict,
  FileChange,
  FileHistoryLimits,
  LspAccess,
  LspConfig,
  LspServersOptions,
  Tool,
  ToolAuditRecord,
  ToolContext,
  ToolWait,
  WebSettings,
} from './tools/index.ts';
export {
  CommandPolicy,
  createCodingTools,
  createCommandPolicy,
  createPathGuard,
  defaultAllowedCommands,
  defaultCommandTimeoutMs,
  defineTool,
  FileHistory,
  LspServers,
  maxCommandOutputChars,
  maxCommandTimeoutMs,
  PathGuard,
  runCommand,
  TodoList,
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
export { parseWorkflow } from './workflow/index.ts';
