import type { RuntimeConfig, RuntimeEnv, RuntimeOptions } from '@keel/runtime';

export interface ModelReadiness {
  /** A run could start: nothing is missing. */
  ready: boolean;
  /** What a run still needs: `model`, `model_api_key`. */
  missing: string[];
  model: string | null;
  /** Null: the client's hosted default endpoint. */
  model_base_url: string | null;
}

/**
 * Whether a run started now would find a model, resolved as the runtime resolves it (its
 * `resolveModelSettings`): name and URL from the embedding caller, then the config files, then
 * RUNTIME_MODEL / RUNTIME_MODEL_BASE_URL; a key from RUNTIME_MODEL_API_KEY or the caller. A custom base
 * URL (Ollama, vLLM, a proxy) needs no key; the hosted default endpoint does.
 */
export function modelReadiness(
  config: RuntimeConfig,
  env: RuntimeEnv,
  caller: Pick<RuntimeOptions, 'model' | 'modelBaseUrl' | 'apiKey'> = {},
): ModelReadiness {
  const model = caller.model || config.model || env.model || null;
  const baseUrl = caller.modelBaseUrl || config.model_base_url || env.modelBaseUrl || null;
  const missing: string[] = [];
  if (!model) missing.push('model');
  if (!baseUrl && !(env.modelApiKey || caller.apiKey)) missing.push('model_api_key');
  return { ready: missing.length === 0, missing, model, model_base_url: baseUrl };
}
