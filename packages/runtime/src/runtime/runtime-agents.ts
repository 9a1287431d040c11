import { AgentsApi } from '../agents/index.ts';
import { loadConfig, type RuntimeEnv, resolveModelSettings } from '../config/index.ts';
import type { Run, RunStore } from '../store/index.ts';
import type { ParsedRunRequest } from './run-request.ts';
import type { RuntimeOptions } from './runtime-options.ts';
import { normaliseWorkdir } from './workdir.ts';

export interface RuntimeAgentsContext {
  options: RuntimeOptions;
  env: RuntimeEnv;
  runtimeDir: string;
  store(): Promise<RunStore>;
  /** The runtime's per-request model keys: a sub-agent uses its parent's. */
  requestKeys: Map<string, string>;
  /** Drives a run until it is final, in this process (the runtime's own follow-and-drive loop). */
  follow(runId: string): Promise<unknown>;
}

/**
 * The runtime's sub-agents API: children run in the process that spawns them, with the parent's model
 * settings and key; configuration `sub_agents` where they work sets their limit and default timeout.
 */
export function createRuntimeAgents(context: RuntimeAgentsContext): AgentsApi {
  const { options, env, runtimeDir, requestKeys } = context;
  const now = () => options.now?.() ?? new Date();
  const agents: AgentsApi = new AgentsApi({
    store: () => context.store(),
    workdir: (requested) => normaliseWorkdir(requested ?? options.workdir),
    limits: (workdir) => loadConfig(runtimeDir, workdir, options.trustProjectConfig).sub_agents ?? {},
    validate: async (input, workdir, parent) => {
      // As for any run: a missing model or key fails before a run exists.
      resolveModelSettings(
        {
          ...(input as unknown as ParsedRunRequest),
          model_api_key: parent ? requestKeys.get(parent.id) : undefined,
        },
        { model: options.model, model_base_url: options.modelBaseUrl, model_api_key: options.apiKey },
        loadConfig(runtimeDir, workdir, options.trustProjectConfig),
        env,
      );
    },
    start: (run: Run, parent: Run | null) => {
      const key = parent ? requestKeys.get(parent.id) : undefined;
      if (key) requestKeys.set(run.id, key);
      void context.follow(run.id).catch(() => undefined);
      // A sub-agent that waits (for an approval, say) has no worker to time it out: this timer does.
      const untilDeadline = Date.parse(run.agent!.deadline_at) - now().getTime();
      setTimeout(() => void agents.sweep(), Math.max(untilDeadline, 0) + 50).unref();
    },
    now,
  });
  return agents;
}
