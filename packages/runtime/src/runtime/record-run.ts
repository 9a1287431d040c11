import { loadConfig, type RuntimeEnv, resolveModelSettings } from '../config/index.ts';
import { skillsForRun } from '../skills/index.ts';
import type { JsonObject, JsonValue, Run, RunStore, SessionStore } from '../store/index.ts';
import { agentWorkflow, parseWorkflow, type Workflow } from '../workflow/index.ts';
import { parseRunRequest, type RunRequest } from './run-request.ts';
import type { RuntimeOptions } from './runtime-options.ts';
import { normaliseWorkdir } from './workdir.ts';

export interface RecordRunDeps {
  options: RuntimeOptions;
  /** The environment variables, read once by the runtime. */
  env: RuntimeEnv;
  runtimeDir: string;
  sessions: SessionStore;
  store: () => Promise<RunStore>;
}

/**
 * Validates a run request and records it as a queued run (with a new session unless it names one).
 * Everything that can be wrong with the request fails here, before a run exists. The request's own model
 * key comes back beside the run: it is kept in this process's memory, never stored.
 */
export async function recordRun(
  request: RunRequest,
  workflowOption: Workflow | undefined,
  deps: RecordRunDeps,
): Promise<{ run: Run; requestKey: string | undefined }> {
  const { options, env, runtimeDir, sessions } = deps;
  const parsed = parseRunRequest(request);
  const workflow = workflowOption ? parseWorkflow(workflowOption) : agentWorkflow();
  const workdir = await normaliseWorkdir(parsed.workdir);
  const config = loadConfig(runtimeDir, workdir, options.trustProjectConfig);
  // Resolve the model now, so a missing model or key fails before a run exists.
  const settings = resolveModelSettings(
    parsed,
    { model: options.model, model_base_url: options.modelBaseUrl, model_api_key: options.apiKey },
    config,
    env,
  );
  // Unknown or disabled names in `skills` fail here too, before a run exists.
  if (parsed.skills) {
    await skillsForRun(runtimeDir, workdir, config, parsed.skills, { envDirs: env.skillDirs });
  }
  const session = parsed.session_id
    ? sessions.get(parsed.session_id)
    : sessions.create({ title: titleOf(parsed.prompt), model: settings.model, workdir });
  const { model_api_key: requestKey, stream: _stream, ...input } = parsed;
  const store = await deps.store();
  const run = await store.createRun({
    session_id: session.id,
    workdir,
    prompt: parsed.prompt,
    workflow: workflow as unknown as JsonValue,
    input: { ...input, workdir } as unknown as JsonObject,
  });
  return { run, requestKey };
}

/** A new session's title: the prompt's first line, shortened. */
function titleOf(prompt: string): string {
  const line = prompt.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
