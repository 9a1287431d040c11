import { type BreakerLimits, buildSystemPrompt, defaultBreakerLimits } from '../agent/index.ts';
import {
  type AgentsApi,
  promptForSpecialist,
  promptForType,
  resolveSpecialists,
  toolsForRun,
  toolsForSpecialist,
} from '../agents/index.ts';
import { loadConfig, type RuntimeEnv, resolveModelSettings } from '../config/index.ts';
import { resolveContextBudget } from '../context/index.ts';
import { type McpClientPool, type McpServerConfig, resolveMcpServers, withMcpTools } from '../mcp/index.ts';
import { memoryPromptLines, ProjectMemory } from '../memory/index.ts';
import { type ChatMessage, ModelClient, priceOf } from '../model/index.ts';
import { createToolContext, executionAttempt, type RunSetup, toolAuditor } from '../runs/index.ts';
import { skillsForRun, withSkillTools } from '../skills/index.ts';
import type { Run, RunStore, SessionStore } from '../store/index.ts';
import {
  createCodingTools,
  FileHistory,
  type LspServers,
  TodoList,
  type ToolTraits,
} from '../tools/index.ts';
import { agentWorkflow } from '../workflow/index.ts';
import type { ParsedRunRequest } from './run-request.ts';
import type { RuntimeOptions } from './runtime-options.ts';

export interface RunSetupDeps {
  options: RuntimeOptions;
  /** The environment variables, read once by the runtime. */
  env: RuntimeEnv;
  runtimeDir: string;
  sessions: SessionStore;
  /** Where the run's tool calls are audited. */
  store: RunStore;
  /** A per-request model key given to this process; never stored with the run. */
  requestKey?: string | undefined;
  /** The runtime's MCP connections, shared by its runs. */
  mcp: McpClientPool;
  /** The runtime's language servers, shared by its runs and direct tool calls. */
  lsp?: LspServers | undefined;
  /** The runtime's sub-agents, for the agent meta tools of its runs (spawn_agent…). */
  agents?: AgentsApi | undefined;
}

const plainWorkflow = JSON.stringify(agentWorkflow());
// Judging whether a call needs approval reads files only; it has nothing to cancel.
const neverAborted = new AbortController().signal;

/**
 * Resolves what one execution of a run needs from its stored input and this process's configuration:
 * the model client, tools, their context (path guard, command policy, sandbox), limits and session wiring.
 */
export async function resolveRunSetup(run: Run, deps: RunSetupDeps): Promise<RunSetup> {
  const { options } = deps;
  const request = run.input as unknown as ParsedRunRequest;
  const config = loadConfig(deps.runtimeDir, run.workdir, options.trustProjectConfig);
  const settings = resolveModelSettings(
    { ...request, model_api_key: deps.requestKey },
    {
      model: options.model,
      model_base_url: options.modelBaseUrl,
      model_api_key: options.apiKey,
      enable_thinking: options.enableThinking,
      thinking_budget: options.thinkingBudget,
    },
    config,
    deps.env,
  );
  const client = new ModelClient({
    ...settings,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // Skills enabled for this run (the request's `skills` narrows them) come with list_skills and read_skill.
  const skills = await skillsForRun(deps.runtimeDir, run.workdir, config, request.skills, {
    envDirs: deps.env.skillDirs,
  });
  // What earlier runs saved with save_memory; a broken memory file must not stop the run.
  const memory = memoryPromptLines(
    await new ProjectMemory(deps.runtimeDir, run.workdir).entries().catch(() => []),
  );
  // Configured MCP servers add mcp_list_tools and mcp_call; a server starts only when the model uses it.
  const mcpServers = resolveMcpServers(withCallerServers(config.mcp?.servers, options.mcpServers), {
    workdir: run.workdir,
    env: options.env ?? process.env,
  });
  // A sub-agent's tools are its type's; any other run gets spawn_agent and the other agent meta tools.
  const tools = toolsForRun(
    withMcpTools(withSkillTools(options.tools ?? createCodingTools(), skills), mcpServers, deps.mcp),
    run,
    deps.agents,
  ).filter({
    ...(request.include_tools ? { include: request.include_tools } : {}),
    ...(request.exclude_tools ? { exclude: request.exclude_tools } : {}),
  });
  // One file history and one todo list for every tool call of this execution; they live in memory only
  // (not in checkpoints).
  const toolContext = await createToolContext({
    workdir: run.workdir,
    config,
    extraRoots: request.allowed_roots,
    audit: toolAuditor(deps.store, run),
    history: new FileHistory(),
    todos: new TodoList(),
    runtimeDir: deps.runtimeDir,
    env: deps.env,
    lsp: deps.lsp,
    unconfinedCommands: options.unconfinedCommands ?? 'ask',
    hiddenPaths: options.hiddenPaths,
    commandEnv: options.commandEnv,
    editorFiles: options.editorFiles,
    // Tools tell MCP servers which run and which execution of it a call belongs to (ToolContext.run).
    run: { id: run.id, attempt: await executionAttempt(deps.store, run) },
  });
  const breaker = { ...defaultBreakerLimits, ...config.circuit_breaker };
  const limits: BreakerLimits = {
    enabled: breaker.enabled,
    max_tokens: request.max_tokens ?? breaker.max_tokens,
    max_cost_usd: request.max_cost_usd ?? breaker.max_cost_usd,
    max_steps: request.max_steps ?? breaker.max_steps,
    loop_detect_turns: breaker.loop_detect_turns,
    loop_similarity_threshold: breaker.loop_similarity_threshold,
  };
  const approvalTools = new Set([
    ...(config.security?.require_approval ?? []),
    ...(options.requireApproval ?? []),
  ]);
  // A plain run is a conversation turn of its session; workflow runs keep their agents' turns to themselves.
  // A sub-agent's conversation is its own, even when its run shares its parent's session.
  const plain = !run.agent && JSON.stringify(run.workflow) === plainWorkflow;
  const specialists = resolveSpecialists(config.sub_agents?.specialists);
  const sessionId = run.session_id ?? '';
  return {
    sessionId,
    client,
    tools,
    toolContext,
    limits,
    price: priceOf(settings.model, config.pricing),
    maxDurationMs: config.runs?.max_duration_ms ?? 0,
    contextBudget: resolveContextBudget(settings.model, config.context),
    interactionTimeoutSeconds: options.interactionTimeout ?? config.interaction_timeout ?? 0,
    needsApproval: async (call, args) => {
      const tool = tools.has(call.name) ? tools.get(call.name) : undefined;
      if (
        approvalTools.has(call.name) ||
        (tool && requiredByTrait(approvalTools, tools.traitsOf(call.name)))
      ) {
        return {};
      }
      const reason = await tool?.approvalReason?.(toolContext(neverAborted), args);
      return reason === undefined ? null : { why: reason };
    },
    specialists: specialists.map(({ name, description }) => ({ name, description })),
    specialist: (name) => {
      const found = specialists.find((each) => each.name === name);
      return found && { tools: toolsForSpecialist(found, tools), role: promptForSpecialist(found) };
    },
    systemPrompt: (toolNames) =>
      buildSystemPrompt({
        workdir: run.workdir,
        toolNames,
        now: options.now?.() ?? new Date(),
        skills: toolNames.includes('read_skill') ? skills : [],
        memory,
      }) + (run.agent ? promptForType(run.agent.type) : ''),
    history: () => (plain && run.session_id ? safe(() => deps.sessions.conversation(sessionId), []) : []),
    userMessage: (prompt) => ({
      role: 'user',
      content: prompt,
      ...(plain && request.images?.length ? { images: request.images } : {}),
    }),
    appendToSession: (message: ChatMessage) => {
      // Sessions live in this machine's database; a run resumed elsewhere still has its checkpoint.
      if (plain && run.session_id) safe(() => deps.sessions.append(sessionId, message), undefined);
    },
  };
}

/**
 * Whether `security.require_approval` names one of the tool's traits (`runs_commands`, `writes_files`,
 * `network`) besides tool names: a tool added later that runs commands is covered without being named.
 */
function requiredByTrait(required: ReadonlySet<string>, traits: ToolTraits): boolean {
  return (
    (required.has('runs_commands') && traits.runsCommands === true) ||
    (required.has('writes_files') && traits.writesFiles === true) ||
    (required.has('network') && traits.network === true)
  );
}

/** Config `mcp.servers` with the embedder's servers (RuntimeOptions.mcpServers) over them, by name. */
function withCallerServers(
  configured: readonly McpServerConfig[] | undefined,
  caller: readonly McpServerConfig[] | undefined,
): McpServerConfig[] | undefined {
  if (!caller?.length) return configured ? [...configured] : undefined;
  const names = new Set(caller.map((server) => server.name));
  return [...(configured ?? []).filter((server) => !names.has(server.name)), ...caller];
}

function safe<T>(action: () => T, fallback: T): T {
  try {
    return action();
  } catch {
    return fallback;
  }
}
