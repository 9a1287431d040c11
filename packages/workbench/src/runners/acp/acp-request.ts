import type { ContentBlock, McpServerStdio, PromptCapabilities } from '@agentclientprotocol/sdk';
import { agentEnvironment } from '../agent-env.ts';
import type { RunnerRequest } from '../contract.ts';
import { promptOf } from '../keel-request.ts';
import { findBinary } from './agent-process.ts';

/** What the ACP runner is built with. */
export interface AcpRunnerOptions {
  /**
   * The service's environment, instead of process.env: the agent gets only its minimal part
   * (`agentEnvironment`), the runner config's `env` on top.
   */
  env?: NodeJS.ProcessEnv;
  /** Where the workbench installs agents: `<agentsDir>/node_modules/.bin` is searched after PATH. */
  agentsDir?: string;
  /** Longest silence of the agent (no output on stdout or stderr) before the run fails; default 30 min. */
  timeoutMs?: number;
}

/** The idle timeout when neither the options nor the environment set one. */
export const defaultTimeoutMs = 30 * 60_000;

/**
 * The idle timeout: `options.timeoutMs`, else `KEEL_ACP_TIMEOUT_MS` from the runner config's env (settings,
 * "Runner Configs") or the runner's environment, else 30 minutes.
 */
export function timeoutOf(options: AcpRunnerOptions, request: RunnerRequest): number {
  if (options.timeoutMs && options.timeoutMs > 0) return options.timeoutMs;
  const fromEnv = Number(request.config.env.KEEL_ACP_TIMEOUT_MS ?? options.env?.KEEL_ACP_TIMEOUT_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : defaultTimeoutMs;
}

// Keel's own settings that `keel acp` reads as the in-process runner does (its model key is set apart): the
// sandbox hides WORKBENCH_HOME and RUNTIME_HOME from commands only when it knows them. BRAVE_SEARCH_API_KEY
// is Keel's web search, which Keel's own tools use; Keel's commands never see it.
const keelSettings = [
  'RUNTIME_HOME',
  'WORKBENCH_HOME',
  'RUNTIME_SKILL_DIRS',
  'RUNTIME_ENABLE_THINKING',
  'RUNTIME_THINKING_BUDGET',
  'BRAVE_SEARCH_API_KEY',
];

/**
 * The agent's environment (`agentEnvironment`): the minimal part of the runner's own (PATH, HOME, locale,
 * TMPDIR, ...: never the service's tokens and credentials), what the runner sets, the runner config's on top.
 * For opencode, edits and commands are set to 'ask' (unless the config chose otherwise), so they reach
 * `session/request_permission` and the workbench's policy decides, instead of opencode's default of allowing
 * them unasked. `keel acp` takes the workbench's model settings through its environment (ACP cannot hand
 * over a model), unless the config's `env` names them itself.
 */
export function agentEnvOf(
  options: AcpRunnerOptions,
  request: RunnerRequest,
  binary: string,
): NodeJS.ProcessEnv {
  const set: Record<string, string | undefined> = {};
  const keel = /(^|\/)keel(\.js)?$/.test(binary);
  if (/(^|\/)opencode(\.exe)?$/.test(binary)) {
    set.OPENCODE_PERMISSION = JSON.stringify({ edit: 'ask', bash: 'ask', external_directory: 'ask' });
  }
  if (keel) {
    const model = request.model;
    set.RUNTIME_MODEL = model.model || undefined;
    set.RUNTIME_MODEL_BASE_URL = model.baseUrl || undefined;
    set.RUNTIME_MODEL_API_KEY = model.apiKey || undefined;
  }
  return agentEnvironment(options.env ?? process.env, {
    set,
    config: request.config.env,
    ...(keel ? { keep: keelSettings } : {}),
  });
}

/**
 * The request's enabled MCP servers in ACP's stdio shape (env as a name/value list). ACP wants an absolute
 * command: a bare name (`npx`) is looked up on the agent's PATH, and passed as is when it is not there.
 */
export async function mcpServersOf(
  request: RunnerRequest,
  env: NodeJS.ProcessEnv,
): Promise<McpServerStdio[]> {
  const enabled = request.mcpServers.filter((server) => server.enabled);
  return Promise.all(
    enabled.map(async (server) => ({
      name: server.name,
      command: (await findBinary(server.command, env, undefined)) ?? server.command,
      args: [...server.args],
      env: Object.entries(server.env).map(([name, value]) => ({ name, value })),
    })),
  );
}

/** What a session was about, kept to brief a new session when the agent cannot load the old one. */
export interface SessionMemory {
  prompt: string;
  output: string;
}

const memoryChars = 2_000;

export function memoryOf(request: RunnerRequest, output: string): SessionMemory {
  return { prompt: clip(request.prompt), output: clip(output) };
}

/**
 * The prompt blocks: the stage's instructions and the request in tagged sections (as the Keel runner does),
 * an earlier session's gist when it could not be loaded, then the images when the agent takes them.
 */
export function promptBlocksOf(
  request: RunnerRequest,
  capabilities: PromptCapabilities | undefined,
  earlier: { sessionId: string; memory?: SessionMemory | undefined } | undefined,
): ContentBlock[] {
  let text = promptOf(request);
  if (earlier) text = `${replayOf(earlier.sessionId, earlier.memory)}\n\n${text}`;
  const images = request.images ?? [];
  if (images.length > 0 && !capabilities?.image) {
    text += `\n\n(${images.length} image(s) left out: this agent does not accept images.)`;
  }
  const blocks: ContentBlock[] = [{ type: 'text', text }];
  if (capabilities?.image) {
    for (const image of images) {
      blocks.push({ type: 'image', data: image.data, mimeType: image.media_type });
    }
  }
  return blocks;
}

function replayOf(sessionId: string, memory: SessionMemory | undefined): string {
  const lines = [
    `This continues an earlier conversation (session ${sessionId}) that this agent cannot reload.`,
    'The workspace already holds whatever that conversation changed.',
  ];
  if (memory) {
    lines.push(`Earlier request:\n${memory.prompt}`, `Earlier answer:\n${memory.output}`);
  }
  return `<earlier_session>\n${lines.join('\n')}\n</earlier_session>`;
}

function clip(text: string): string {
  return text.length > memoryChars ? `${text.slice(0, memoryChars)}…` : text;
}
