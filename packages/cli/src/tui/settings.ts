import type { BreakerLimits } from '@keel/runtime';
import { defaultBreakerLimits, loadConfig, readEnv } from '@keel/runtime/internal';
import type { RunRequestFlags } from '../run-request-flags.ts';

/** The model choices given on the command line; they win over config files and environment. */
export type ModelFlags = Pick<RunRequestFlags, 'model' | 'modelBaseUrl' | 'thinking' | 'thinkingBudget'>;

export interface EffectiveSettings {
  model: string | null;
  modelBaseUrl: string | null;
  thinking: boolean;
  thinkingBudget: number | null;
  breaker: BreakerLimits;
  workdir: string;
  runtimeDir: string;
  /** Whether RUNTIME_MODEL_API_KEY is set; the key itself is never shown. */
  apiKeySet: boolean;
}

/**
 * The settings a run started now would use, resolved in the runtime's order: flags, then config files
 * (project over global), then RUNTIME_* variables. A broken config file throws its ConfigError.
 */
export function effectiveSettings(
  flags: ModelFlags,
  workdir: string,
  env: NodeJS.ProcessEnv,
): EffectiveSettings {
  const vars = readEnv(env);
  const config = loadConfig(vars.home, workdir);
  return {
    model: flags.model || config.model || vars.model || null,
    modelBaseUrl: flags.modelBaseUrl || config.model_base_url || vars.modelBaseUrl || null,
    thinking: flags.thinking ?? config.enable_thinking ?? vars.enableThinking ?? false,
    thinkingBudget: flags.thinkingBudget ?? config.thinking_budget ?? vars.thinkingBudget ?? null,
    breaker: { ...defaultBreakerLimits, ...config.circuit_breaker },
    workdir,
    runtimeDir: vars.home,
    apiKeySet: Boolean(vars.modelApiKey),
  };
}

/** `/settings` as lines of text; secrets never appear (a key is "set" or not, URL credentials are masked). */
export function settingsLines(settings: EffectiveSettings): string[] {
  const { breaker } = settings;
  const limit = (value: number, unit = '') => (value > 0 ? `${value}${unit}` : 'none');
  return [
    `Model           ${settings.model ?? '(none: set --model, "model" in config, or RUNTIME_MODEL)'}`,
    `Base URL        ${settings.modelBaseUrl ? maskUrl(settings.modelBaseUrl) : '(default endpoint)'}`,
    `API key         ${settings.apiKeySet ? 'set (RUNTIME_MODEL_API_KEY)' : 'not set'}`,
    `Thinking        ${settings.thinking ? `on${settings.thinkingBudget ? `, budget ${settings.thinkingBudget} tokens` : ''}` : 'off'}`,
    `Breaker         ${breaker.enabled ? 'on' : 'off'}: max tokens ${limit(breaker.max_tokens)}, max cost ${breaker.max_cost_usd > 0 ? `$${breaker.max_cost_usd}` : 'none'}, max steps ${limit(breaker.max_steps)}, loop after ${breaker.loop_detect_turns} similar turns (≥ ${breaker.loop_similarity_threshold})`,
    `Workdir         ${settings.workdir}`,
    `Runtime dir     ${settings.runtimeDir}`,
  ];
}

/** A URL without its password, user name or secret-looking query values. */
export function maskUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (url.username) url.username = '***';
  if (url.password) url.password = '***';
  for (const name of [...url.searchParams.keys()]) {
    if (/key|token|secret|password|auth/i.test(name)) url.searchParams.set(name, '***');
  }
  return url.toString();
}
