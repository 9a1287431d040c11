import { AgentError, AgentNotFoundError, InvalidStateError, KeelError } from '../errors/index.ts';
import {
  finishedStatuses,
  type JsonObject,
  newId,
  type Run,
  type RunAgent,
  type RunStore,
} from '../store/index.ts';
import type { ToolFilter } from '../tools/index.ts';
import { agentWorkflow } from '../workflow/index.ts';
import { taskPrompt } from './agent-prompt.ts';
import { type SubAgent, type SubAgentStatus, subAgentStatusOf, toSubAgent } from './agent-record.ts';
import { inheritedToolFilter, toolFilterInput } from './inherited-tools.ts';
import {
  awaitedAgent,
  expireOverdueAgents,
  killAndWait,
  killStrayAgents,
  wakeIfWaitingOn,
} from './run-family.ts';
import { defaultAgentLimits, parseSpawnRequest, type SpawnRequest } from './spawn-request.ts';

/** What the sub-agents API needs from its runtime. */
export interface AgentsDeps {
  store(): Promise<RunStore>;
  /** The normalised workdir of a spawn that no run makes (`requested`, or the runtime's own). */
  workdir(requested: string | undefined): Promise<string>;
  /** Config `sub_agents` where the sub-agent works. */
  limits(workdir: string): { max_concurrent?: number | undefined; timeout_seconds?: number | undefined };
  /** Fails (CONFIG_ERROR, INVALID_PARAMS…) when a run with this input could not start: no model, say. */
  validate(input: JsonObject, workdir: string, parent: Run | null): Promise<void>;
  /** Executes a recorded sub-agent run in this process, in the background, from its parent's settings. */
  start(run: Run, parent: Run | null): void;
  now(): Date;
}

/** Limits who may see a sub-agent: a run sees only those it spawned (its agent meta tools). */
export interface AgentScope {
  /** The run asking; a sub-agent it did not spawn is AGENT_NOT_FOUND to it. */
  parent?: Run;
  /**
   * The tools a sub-agent it spawns may use, as its run's include_tools/exclude_tools (spawn_agent narrows
   * its parent's filter to the sub-agent's type); default the parent's own filter (inheritedToolFilter).
   */
  tools?: ToolFilter;
}

/** How long kill waits for a running sub-agent's worker to stop it. */
const killWaitMs = 10_000;

/**
 * Sub-agents: durable child runs with a type (its tools and prompt), a timeout and a place in its
 * parent's log. Spawn, get, kill and resume work from any process sharing the store; the run itself is
 * queued, claimed, checkpointed and recovered like every run. States and moves:
 * docs/decisions/2026-11-23-sub-agents.md.
 *
 * @example
 * const agent = await runtime.agents.spawn({ task: 'Find where config is loaded', type: 'research' });
 * const done = await runtime.agents.get(agent.agent_id);
 */
export class AgentsApi {
  readonly #deps: AgentsDeps;
  // Spawns in this process one at a time: the limit's count is atomic in the store, this keeps the events
  // of concurrent spawns from one parent in spawn order.
  #spawning: Promise<unknown> = Promise.resolve();

  constructor(deps: AgentsDeps) {
    this.#deps = deps;
  }

  /**
   * Records a sub-agent (status pending) and starts it in this process. AGENT_LIMIT_REACHED when the
   * configured number (default 5) are already pending or running; INVALID_PARAMS for a bad request.
   */
  spawn(request: SpawnRequest, scope: AgentScope = {}): Promise<SubAgent> {
    const next = this.#spawning.then(() => this.#spawn(request, scope));
    this.#spawning = next.catch(() => undefined);
    return next;
  }

  /** The sub-agent's record; AGENT_NOT_FOUND for an unknown id (or one the scope's run did not spawn). */
  async get(agentId: string, scope: AgentScope = {}): Promise<SubAgent> {
    await this.sweep();
    return toSubAgent(await this.#latest(agentId, scope));
  }

  /** The sub-agents a run spawned, newest first. */
  async list(parentRunId: string): Promise<SubAgent[]> {
    const store = await this.#deps.store();
    await store.getRun(parentRunId);
    await this.sweep();
    const runs = await store.listRuns({ parent_run_id: parentRunId, limit: 1000 });
    // Newest first: the first run of each agent id is its latest.
    const latest = new Map<string, Run>();
    for (const run of runs)
      if (run.agent && !latest.has(run.agent.agent_id)) latest.set(run.agent.agent_id, run);
    return [...latest.values()].map(toSubAgent);
  }

  /**
   * Kills a pending or running sub-agent and waits (up to 10 s) until its run has stopped. `killed` is
   * false for one that had already ended, which keeps its status.
   */
  async kill(
    agentId: string,
    scope: AgentScope = {},
  ): Promise<{ agent_id: string; killed: boolean; status: SubAgentStatus }> {
    await this.sweep();
    const store = await this.#deps.store();
    const run = await this.#latest(agentId, scope);
    if (finishedStatuses.includes(run.status)) {
      return { agent_id: agentId, killed: false, status: subAgentStatusOf(run) };
    }
    const after = await this.#guard('kill', agentId, () => killAndWait(store, run, killWaitMs));
    await store
      .recordAudit({
        event: 'run_control',
        tool_name: null,
        args_summary: `kill sub-agent ${agentId}`,
        result_summary: `${after.id} is ${after.status}`,
        session_id: after.session_id,
        run_id: after.id,
        workdir: after.workdir,
        success: true,
      })
      .catch(() => undefined);
    return { agent_id: agentId, killed: true, status: subAgentStatusOf(after) };
  }

  /**
   * Starts a completed, failed or timed-out sub-agent again: a new run of the same agent id (pending),
   * whose prompt is its original task with the previous output or error. INVALID_STATE for one that is
   * still working or was killed; AGENT_LIMIT_REACHED as for a spawn.
   */
  async resume(agentId: string, scope: AgentScope = {}): Promise<SubAgent> {
    await this.sweep();
    const previous = await this.#latest(agentId, scope);
    const record = toSubAgent(previous);
    if (!['completed', 'failed', 'timeout'].includes(record.status)) {
      throw new InvalidStateError(
        `Sub-agent '${agentId}' is ${record.status}; only a completed, failed or timed-out sub-agent can be resumed.`,
        { agent_id: agentId, status: record.status, allowed: ['completed', 'failed', 'timeout'] },
      );
    }
    const store = await this.#deps.store();
    const parent = previous.parent_run_id
      ? await store.getRun(previous.parent_run_id).catch(() => null)
      : null;
    const agent = previous.agent!;
    return this.#record(
      {
        ...agent,
        ...this.#deadline(agent.timeout_seconds),
        resumes: previous.id,
      },
      {
        workdir: previous.workdir,
        input: previous.input,
        // The filter it was spawned with: a resumed sub-agent gets no tool its first run did not have.
        tools: inheritedToolFilter(previous.input),
        prompt: taskPrompt(agent.task, record),
        parent,
      },
    );
  }

  /**
   * Ends the sub-agents past their deadline that no live worker executes (see expireOverdueAgents) and
   * kills those whose parent ended without them (killStrayAgents). The API calls it before it reads or
   * counts; the runtime also calls it at each deadline it knows of.
   */
  async sweep(): Promise<void> {
    const store = await this.#deps.store();
    await expireOverdueAgents(store, this.#deps.now().getTime()).catch(() => undefined);
    await killStrayAgents(store).catch(() => undefined);
  }

  /**
   * Puts a run parked on a sub-agent that has ended back in the queue: for a wake-up that was lost (the
   * child's process died between its end and the wake-up, or it was cancelled as a plain run). Whoever
   * follows a waiting run calls it; true when the run was queued.
   */
  async wakeIfReady(runId: string): Promise<boolean> {
    const store = await this.#deps.store();
    const run = await store.getRun(runId);
    if (run.status !== 'waiting') return false;
    const agentId = await awaitedAgent(store, runId);
    if (!agentId || !(await this.ended(agentId))) return false;
    return wakeIfWaitingOn(store, run, agentId);
  }

  /** Whether the sub-agent's latest run has ended (what a parked parent waits for). */
  async ended(agentId: string): Promise<boolean> {
    const store = await this.#deps.store();
    const [latest] = await store.listRuns({ agent_id: agentId, limit: 1 });
    return latest !== undefined && finishedStatuses.includes(latest.status);
  }

  async #spawn(request: SpawnRequest, scope: AgentScope): Promise<SubAgent> {
    const parsed = parseSpawnRequest(request);
    const parent = scope.parent ?? null;
    const workdir = parent ? parent.workdir : await this.#deps.workdir(parsed.workdir);
    const timeout =
      parsed.timeout ?? this.#deps.limits(workdir).timeout_seconds ?? defaultAgentLimits.timeout_seconds;
    const now = this.#deps.now();
    const agent: RunAgent = {
      agent_id: newId('agt', now.getTime()),
      type: parsed.type,
      task: parsed.task,
      timeout_seconds: timeout,
      spawned_at: now.toISOString(),
      resumes: null,
      ...this.#deadline(timeout),
    };
    const tools = scope.tools ?? (parent ? inheritedToolFilter(parent.input) : {});
    return this.#record(agent, { workdir, input: parent?.input ?? {}, tools, prompt: parsed.task, parent });
  }

  /** Records one run of a sub-agent under the limit, announces it to its parent and starts it here. */
  async #record(
    agent: RunAgent,
    from: { workdir: string; input: JsonObject; tools: ToolFilter; prompt: string; parent: Run | null },
  ): Promise<SubAgent> {
    const { workdir, parent } = from;
    const input = { ...inherited(from.input), ...toolFilterInput(from.tools), prompt: from.prompt, workdir };
    await this.#deps.validate(input, workdir, parent);
    const store = await this.#deps.store();
    // Overdue ones must not hold places they will never use.
    await this.sweep();
    const limit = this.#deps.limits(workdir).max_concurrent ?? defaultAgentLimits.max_concurrent;
    const run = await this.#guard('spawn', agent.agent_id, () =>
      store.createRun({
        session_id: parent?.session_id ?? null,
        workdir,
        prompt: from.prompt,
        workflow: agentWorkflow() as never,
        input,
        parent_run_id: parent?.id ?? null,
        agent,
        agent_limit: limit,
      }),
    );
    if (parent) {
      await store
        .appendEvent(parent.id, {
          type: 'agent_spawned',
          session_id: parent.session_id ?? '',
          agent_id: agent.agent_id,
          run_id: run.id,
          agent_type: agent.type,
          task: agent.task,
        })
        .catch(() => undefined);
    }
    this.#deps.start(run, parent);
    return toSubAgent(run);
  }

  /** The sub-agent's latest run, if the scope may see it. */
  async #latest(agentId: string, scope: AgentScope): Promise<Run> {
    const store = await this.#deps.store();
    const [latest] = await store.listRuns({ agent_id: agentId, limit: 1 });
    if (!latest || (scope.parent && latest.parent_run_id !== scope.parent.id)) {
      throw new AgentNotFoundError(agentId);
    }
    return latest;
  }

  #deadline(timeoutSeconds: number): { deadline_at: string } {
    return { deadline_at: new Date(this.#deps.now().getTime() + timeoutSeconds * 1000).toISOString() };
  }

  /** Spec section 7: a failure that is not the caller's (the store, say) is AGENT_ERROR. */
  async #guard<T>(action: string, agentId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (KeelError.is(error) && error.code !== 'STORE_ERROR') throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new AgentError(
        `Could not ${action} sub-agent '${agentId}': ${reason}`,
        { agent_id: agentId },
        {
          cause: error,
        },
      );
    }
  }
}

/**
 * What a sub-agent's run takes from its parent's request: the model and where it may work (its tools come
 * from `#record`'s filter).
 */
function inherited(input: JsonObject): JsonObject {
  const keys = ['model', 'model_base_url', 'enable_thinking', 'thinking_budget', 'allowed_roots', 'skills'];
  return Object.fromEntries(Object.entries(input).filter(([key]) => keys.includes(key)));
}
