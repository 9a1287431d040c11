/**
 * @keel/runtime: Keel's embeddable coding-agent runtime.
 *
 * @example
 * import { createRuntime } from '@keel/runtime';
 * const runtime = createRuntime();
 * for await (const event of runtime.stream({ prompt: 'Explain src/index.ts' })) console.log(event.type);
 */
export type { AgentOutcome, BreakerLimits } from './agent/index.ts';
export { defaultBreakerLimits, deriveMetadata, runAgentLoop } from './agent/index.ts';
export type { RuntimeConfig, RuntimeEnv } from './config/index.ts';
export { configSchema, globalConfigPath, loadConfig, projectConfigPath, readEnv } from './config/index.ts';
export type { ErrorCode, ErrorObject } from './errors/index.ts';
export {
  AuthenticationError,
  CancelledError,
  CircuitBreakerError,
  ConfigError,
  httpStatusOf,
  InvalidParamsError,
  InvalidStateError,
  KeelError,
  ModelError,
  PermissionDeniedError,
  RunNotFoundError,
  SessionNotFoundError,
  ToolError,
  ToolNotFoundError,
  toErrorObject,
} from './errors/index.ts';
export type { EventOf, EventType, RunMetadata, RuntimeEvent, ToolTrace, Usage } from './events/index.ts';
export { EventManager, eventSchemas, parseEvent } from './events/index.ts';
export type { ChatMessage, ImagePayload, ModelSettings, RetryPolicy, ToolCall } from './model/index.ts';
export { ModelClient } from './model/index.ts';
export type { RunOptions, RunRequest, RunResult, RuntimeOptions } from './runtime/index.ts';
export {
  createRuntime,
  normaliseWorkdir,
  parseRunRequest,
  Runtime,
  runRequestSchema,
} from './runtime/index.ts';
export type {
  ControlKind,
  Run,
  RunEventRecord,
  RunStatus,
  Session,
  SessionDetail,
  SessionMessage,
} from './store/index.ts';
export { finishedStatuses, newId, openSqlite, RunStore, SessionStore } from './store/index.ts';
export type { Tool, ToolContext } from './tools/index.ts';
export { createCodingTools, createPathGuard, defineTool, PathGuard, ToolRegistry } from './tools/index.ts';
