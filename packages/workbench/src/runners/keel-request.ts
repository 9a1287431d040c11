import { delimiter } from 'node:path';
import {
  createCodingTools,
  type McpServerConfig,
  type ProjectTrust,
  type RunRequest,
  type RuntimeOptions,
} from '@keel/runtime';
import type { McpServerSetting, RunnerRequest } from './contract.ts';

/** What the Keel runner is built with. */
export interface KeelRunnerOptions {
  /** Runtime dir (RUNTIME_HOME) for the durable runs; default the runtime's default. */
  runtimeDir?: string;
  /** Environment the runtime reads instead of process.env. */
  env?: NodeJS.ProcessEnv;
  /** How model calls are retried (default the runtime's: 4 attempts, 1 s doubling); tests shorten it. */
  retry?: RuntimeOptions['retry'];
  /**
   * Whether a folder's `.runtime/config.json` may apply its security-relevant keys (the workbench: the
   * project's `trust_repository_config`). Default: no folder, whatever the runtime's global trust list says
   * (workspaces are copies in WORKBENCH_HOME, repositories are the user's to vouch for).
   */
  trustProjectConfig?: Exclude<ProjectTrust, boolean>;
  /** Folders commands must not read even when they are not in the environment: WORKBENCH_HOME. */
  hiddenPaths?: string[];
}

/**
 * The runtime for one request: its model, key, workdir, trust decision, environment, MCP servers and
 * skill directories.
 */
export function runtimeOptionsOf(options: KeelRunnerOptions, request: RunnerRequest): RuntimeOptions {
  const model = modelOf(request);
  return {
    ...(options.runtimeDir ? { runtimeDir: options.runtimeDir } : {}),
    workdir: request.workdir,
    // Decided per folder (the workdir, each allowed root); never the global trust list.
    trustProjectConfig: options.trustProjectConfig ?? false,
    // The workbench's runs stay in RUNTIME_HOME, where it follows them, whatever a workspace's config says.
    storeFromProjectConfig: false,
    // Nobody answers a Keel approval in the workbench: without a sandbox backend, commands that do more
    // than read are refused (with how to allow them) instead of waiting forever.
    unconfinedCommands: 'refuse',
    ...(options.hiddenPaths?.length ? { hiddenPaths: options.hiddenPaths } : {}),
    ...(model ? { model } : {}),
    ...(request.model.baseUrl ? { modelBaseUrl: request.model.baseUrl } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    env: environmentOf(options.env ?? process.env, request),
    mcpServers: request.mcpServers.filter((server) => server.enabled).map(mcpServerOf),
  };
}

/** The runtime's run request: the prompt with the stage's instructions, workdir, roots, images, session. */
export function runRequestOf(request: RunnerRequest): RunRequest {
  const model = modelOf(request);
  return {
    prompt: promptOf(request),
    workdir: request.workdir,
    // Also on the request, so the workbench's choice wins over a project's .runtime/config.json.
    ...(model ? { model } : {}),
    ...(request.model.baseUrl ? { model_base_url: request.model.baseUrl } : {}),
    ...(request.allowedRoots?.length ? { allowed_roots: request.allowedRoots } : {}),
    ...(request.images?.length
      ? {
          images: request.images.map((image) => ({
            data: image.data,
            media_type: image.media_type,
            ...(image.filename ? { filename: image.filename } : {}),
          })),
        }
      : {}),
    ...(request.resumeSessionId ? { session_id: request.resumeSessionId } : {}),
    ...(request.readOnly ? { include_tools: [...readOnlyTools] } : {}),
  };
}

/**
 * The Keel tools that only look (their traits say `readOnly`) and stay on this machine: a read-only request
 * (knowledge, project conversations, over the user's own repositories) gets these and nothing that writes,
 * runs or reaches the network, where a repository's text could have the model send its code. Not
 * `question`: nobody answers one in the workbench, so the run would wait forever (the runtime keeps it from
 * sub-agents for the same reason; traits do not say a tool needs a human). Not the `lsp_*` tools either:
 * they start language servers outside the sandbox, and a server may load what the repository names (a
 * TypeScript plugin in tsconfig.json), which read-only stages over the user's own repositories must not.
 */
export const readOnlyTools: readonly string[] = createCodingTools()
  .list()
  .filter(
    (tool) =>
      tool.traits?.readOnly === true &&
      !tool.traits.network &&
      tool.name !== 'question' &&
      !tool.name.startsWith('lsp_'),
  )
  .map((tool) => tool.name);

/**
 * The prompt with the stage's standing instructions before it, each in its own tagged section. The
 * runtime has no per-run system prompt, and the tags keep instructions and request apart for the model.
 */
export function promptOf(request: Pick<RunnerRequest, 'prompt' | 'instructions'>): string {
  const instructions = request.instructions?.trim();
  if (!instructions) return request.prompt;
  return `<instructions>\n${instructions}\n</instructions>\n\n<request>\n${request.prompt}\n</request>`;
}

/** The request's model, else the runner config's own (settings "Runner Configs"). */
function modelOf(request: RunnerRequest): string | undefined {
  return request.model.model || request.config.model || undefined;
}

function environmentOf(base: NodeJS.ProcessEnv, request: RunnerRequest): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ...request.config.env };
  // The run's key is the one set in the workbench, given the way the runtime reads its key first (its
  // environment secret), as to a Keel child over ACP; a runner config whose env names its own keeps it.
  // This environment is the run's own copy: the workbench's process environment is never changed.
  if (request.model.apiKey && !('RUNTIME_MODEL_API_KEY' in request.config.env)) {
    env.RUNTIME_MODEL_API_KEY = request.model.apiKey;
  }
  // RUNTIME_SKILL_DIRS is the runtime's own list of extra skill directories (each holding <name>/SKILL.md).
  const skillDirs = [...request.skillDirs, ...(env.RUNTIME_SKILL_DIRS ?? '').split(delimiter)].filter(
    Boolean,
  );
  if (skillDirs.length > 0) env.RUNTIME_SKILL_DIRS = skillDirs.join(delimiter);
  return env;
}

function mcpServerOf(server: McpServerSetting): McpServerConfig {
  return {
    name: server.name,
    transport: 'stdio',
    command: server.command,
    args: server.args,
    env: server.env,
  };
}
