import { ConfigError } from '../errors/index.ts';
import {
  defaultModelBaseUrl,
  type ModelProfileName,
  type ModelSettings,
  modelProfileNames,
} from '../model/index.ts';
import { sameEndpoint } from './endpoint-url.ts';
import type { RuntimeEnv } from './env.ts';
import type { RuntimeConfig } from './schema.ts';

/** Model choices of one run, each optional; the first source that sets a value wins. */
export interface ModelChoice {
  model?: string | undefined;
  model_base_url?: string | undefined;
  model_api_key?: string | undefined;
  enable_thinking?: boolean | undefined;
  thinking_budget?: number | undefined;
}

/**
 * Resolves the model of one run. Name and URL: the request, then the embedding caller, then the
 * config files (project over global), then RUNTIME_MODEL / RUNTIME_MODEL_BASE_URL. The key follows
 * the spec: RUNTIME_MODEL_API_KEY, then the request's key, then the caller's `api_key`, but the
 * environment's and the caller's keys only go to the configured endpoint (the URL without the request's,
 * or the default): a request naming another endpoint brings its own key or gets none (`no-key`), so a
 * client cannot send the server's key to an address of its choosing. Thinking settings follow the
 * name's order.
 */
export function resolveModelSettings(
  request: ModelChoice,
  caller: ModelChoice,
  config: RuntimeConfig,
  env: RuntimeEnv,
): Omit<ModelSettings, 'retry' | 'fetch' | 'timeoutMs'> {
  const model = request.model || caller.model || config.model || env.model;
  if (!model) {
    throw new ConfigError(
      'No model configured: set RUNTIME_MODEL, or "model" in .runtime/config.json or ~/.runtime/config.json, ' +
        'or choose one per run (--model on the command line, `model` in the SDK and the API).',
      { option: 'model', env: 'RUNTIME_MODEL' },
    );
  }
  const configured = caller.model_base_url || config.model_base_url || env.modelBaseUrl;
  const baseURL = request.model_base_url || configured;
  const elsewhere =
    !!request.model_base_url && !sameEndpoint(request.model_base_url, configured || defaultModelBaseUrl);
  let apiKey = elsewhere
    ? request.model_api_key
    : env.modelApiKey || request.model_api_key || caller.model_api_key;
  if (!apiKey) {
    // Local endpoints (Ollama, vLLM, LM Studio, the test kit) usually take no key at all.
    if (!baseURL) {
      throw new ConfigError(
        'No model API key: set RUNTIME_MODEL_API_KEY (or `api_key` when embedding the runtime), or set a local model_base_url (RUNTIME_MODEL_BASE_URL, --model-base-url) that needs none.',
        {
          option: 'api_key',
          env: 'RUNTIME_MODEL_API_KEY',
        },
      );
    }
    apiKey = 'no-key';
  }
  const enableThinking =
    request.enable_thinking ?? caller.enable_thinking ?? config.enable_thinking ?? env.enableThinking;
  const thinkingBudget =
    request.thinking_budget ?? caller.thinking_budget ?? config.thinking_budget ?? env.thinkingBudget;
  const profile = config.model_profile ?? envProfile(env.modelProfile);
  return {
    model,
    apiKey,
    // The server's dialect: the config's choice, else the client picks one from the endpoint and model.
    ...(profile ? { profile } : {}),
    ...(baseURL ? { baseURL } : {}),
    ...(enableThinking !== undefined ? { enableThinking } : {}),
    ...(thinkingBudget !== undefined ? { thinkingBudget } : {}),
  };
}

/** RUNTIME_MODEL_PROFILE, checked as the config file's `model_profile` is. */
function envProfile(value: string | undefined): ModelProfileName | undefined {
  if (value === undefined) return undefined;
  if ((modelProfileNames as readonly string[]).includes(value)) return value as ModelProfileName;
  throw new ConfigError(
    `RUNTIME_MODEL_PROFILE must be one of ${modelProfileNames.join(', ')}, got "${value}".`,
    { option: 'model_profile', env: 'RUNTIME_MODEL_PROFILE' },
  );
}
