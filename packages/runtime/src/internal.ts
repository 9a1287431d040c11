/**
 * @keel/runtime/internal: what Keel's own surfaces (`@keel/cli`, `@keel/server`, `@keel/workbench`) use
 * beside the SDK, and the runtime's parts no other package needs. No stability promise: names here change
 * with Keel's surfaces, without notice. Embedders use `@keel/runtime`
 * (docs/decisions/2026-11-23-runtime-internal-subpath.md).
 */
export { defaultBreakerLimits, deriveMetadata, executeAgent } from './agent/index.ts';
export {
  createAgentTools,
  maxAgentTimeoutSeconds,
  spawnRequestSchema,
  subAgentStatuses,
  subAgentTypes,
} from './agents/index.ts';
export { FsBlobStore } from './artifacts/index.ts';
export {
  approvedProjectConfigs,
  ConfigFile,
  canonicalPath,
  configSchema,
  globalConfigPath,
  hiddenValue,
  hideSecrets,
  isInside,
  loadConfig,
  markChanges,
  pinChanges,
  projectConfigPath,
  readEnv,
  resolveModelSettings,
  sameEndpoint,
  trustedFolders,
  trustFolder,
  untrustFolder,
} from './config/index.ts';
export { eventSchemas } from './events/index.ts';
export { type CollectedRun, gitEnv, hardenedConfig, type SpawnGitOptions, spawnGit } from './git/index.ts';
export { maxEntriesPerCategory, memoryCategories, memoryDir, ProjectMemory } from './memory/index.ts';
export type {
  ListedModel,
  ModelListing,
  ModelServer,
  ToolCallingCheck,
  ToolCallingVerdict,
} from './model/index.ts';
export {
  checkToolCalling,
  connectionFailure,
  defaultModelBaseUrl,
  listModels,
  shownUrl,
  toolCheckTool,
} from './model/index.ts';
export {
  guideFileName,
  invalidFields,
  newProjectSchema,
  newTaskSchema,
  projectUpdateSchema,
  taskUpdateSchema,
} from './projects/index.ts';
export { isOrphaned, RunControls } from './runs/index.ts';
export { normaliseWorkdir, parseRunRequest, runRequestSchema } from './runtime/index.ts';
export { BubblewrapSandbox, findExecutable } from './sandbox/index.ts';
export { builtinSkillsDir, createSkillTools, skillSources } from './skills/index.ts';
export type { HostPolicyWording, HostRules, HttpGetOptions, HttpGetResponse } from './tools/index.ts';
export {
  createCommandPolicy,
  defaultCommandTimeoutMs,
  HostPolicy,
  httpGet,
  lspLanguages,
  maxCommandOutputChars,
  maxCommandTimeoutMs,
  PathGuard,
  parseWebUrl,
  runCommand,
  serverDefinition,
  TodoList,
} from './tools/index.ts';
export { parseWorkflow } from './workflow/index.ts';
