// The one contract every runner kind implements (the Keel runtime in process, command-line coding agents,
// editor agents over ACP), and the one normalised event format they all produce. The session runner
// appends these events to the session's JSONL log and broadcasts them; the SPA renders them without
// knowing which runner made them.

import type {
  ErrorObject as RunnerErrorObject,
  RunnerEvent,
  RunnerKind,
  Usage as RunnerUsage,
} from '@keel/protocol/workbench';

export {
  type ErrorObject as RunnerErrorObject,
  type RunnerEvent,
  type RunnerKind,
  runnerKinds,
  type ToolKind,
  toolKinds,
  type Usage as RunnerUsage,
} from '@keel/protocol/workbench';

export type RunnerEventType = RunnerEvent['type'];

/** An MCP server from the workbench's settings. */
export interface McpServerSetting {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  enabled: boolean;
}

/** The model settings a runner passes to its agent. The key never reaches a log or an event. */
export interface ModelSetting {
  model: string;
  baseUrl?: string;
  apiKey?: string;
}

/** A runner config from settings ("Runner Configs"): one kind with its own options. */
export interface RunnerConfig {
  id: string;
  name: string;
  kind: RunnerKind;
  /** Path of the agent's binary; default: found on PATH. */
  binary_path?: string;
  /** Overrides the global model for this runner. */
  model?: string;
  extra_args: string[];
  env: Record<string, string>;
}

export interface RunnerImage {
  data: string;
  media_type: string;
  filename?: string;
}

export interface RunnerRequest {
  prompt: string;
  /** Where the agent works: a task workspace, or a repository for knowledge generation. */
  workdir: string;
  /** Extra directories the agent may read and write beside workdir. */
  allowedRoots?: string[];
  /** Standing instructions for this stage (the runner puts them where its agent reads them). */
  instructions?: string;
  images?: RunnerImage[];
  /** The runner's own session to continue (plan → todo breakdown reuses the plan's conversation). */
  resumeSessionId?: string;
  model: ModelSetting;
  mcpServers: McpServerSetting[];
  /**
   * The agent may read and search the workdir but not change it or run commands (knowledge generation
   * runs in the user's own repositories). Each runner maps it to its agent's read-only mode.
   */
  readOnly?: boolean;
  /** Skill directories (each holding `<name>/SKILL.md`) linked to the project. */
  skillDirs: string[];
  config: RunnerConfig;
  signal: AbortSignal;
}

export interface RunnerOutcome {
  status: 'succeeded' | 'failed' | 'cancelled';
  /** The agent's final answer text. */
  output: string;
  /** The runner's own session id, to resume the conversation later. */
  runnerSessionId?: string;
  /** For the Keel runner: the durable run id, so `keel runs watch` shows the same run. */
  runId?: string;
  usage?: RunnerUsage;
  error?: RunnerErrorObject;
}

export interface RunnerAvailability {
  kind: RunnerKind;
  /** The runner config this answer is about (set by `RunnerRegistry.check`). */
  config_id?: string;
  usable: boolean;
  version?: string;
  /** Why it cannot be used here (binary missing, no model set, …). */
  reason?: string;
}

export interface Runner {
  readonly kind: RunnerKind;
  /** Whether this runner can run on this machine with this config (binary found, version). */
  check(config: RunnerConfig): Promise<RunnerAvailability>;
  /**
   * Runs one AI interaction to its end. Every event goes through `emit` (awaited, so the log keeps up);
   * failures of the agent are reported in the outcome (and as an `error` event), not thrown. Only a
   * broken request (a bug of the caller) throws.
   */
  run(request: RunnerRequest, emit: (event: RunnerEvent) => Promise<void>): Promise<RunnerOutcome>;
}
