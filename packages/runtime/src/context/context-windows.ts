import { lookupModel } from '../model/index.ts';

/**
 * Context windows (prompt tokens a request may hold) of well-known model families, matched by name or
 * variant (see lookupModel: `gpt-4o-2024-08-06`, `openai/gpt-4o`, `llama3.1:8b`, `Qwen/Qwen2.5-72B`).
 * Where a family has several sizes, the figure is the common, not the largest, one: running out of
 * context costs a failed turn, compacting a little early costs nothing. `context.windows` in the
 * configuration overrides or extends this table.
 */
export const builtInContextWindows: Readonly<Record<string, number>> = {
  // OpenAI: gpt-5 takes 400k tokens in all, of which at most 272k of input.
  'gpt-5': 272_000,
  'gpt-4.1': 1_047_576,
  'gpt-4o': 128_000,
  'gpt-4-turbo': 128_000,
  'gpt-4': 8_192,
  'gpt-4-32k': 32_768,
  'gpt-3.5-turbo': 16_385,
  o1: 200_000,
  'o1-mini': 128_000,
  'o1-preview': 128_000,
  o3: 200_000,
  'o3-mini': 200_000,
  'o4-mini': 200_000,
  // Anthropic: 200k for every Claude 3 and 4 model (a 1M window is an opt-in beta).
  claude: 200_000,
  // Google
  gemini: 1_048_576,
  'gemini-pro': 32_768,
  'gemini-1.0': 32_768,
  'gemini-1.5-pro': 2_097_152,
  'gemini-1.5-flash': 1_048_576,
  // Qwen: 32k natively for most open-weight models (more only with YaRN scaling, which servers rarely enable).
  qwen: 32_768,
  qwen2: 32_768,
  'qwen2.5': 32_768,
  qwen3: 32_768,
  'qwen3-coder': 262_144,
  'qwen-plus': 131_072,
  'qwen-turbo': 1_000_000,
  // Llama: 128k from 3.1 on; local servers may load them with less (set `context.windows` then).
  llama: 8_192,
  llama2: 4_096,
  'llama-2': 4_096,
  llama3: 8_192,
  'llama-3': 8_192,
  'llama3.1': 128_000,
  'llama-3.1': 128_000,
  'llama3.2': 128_000,
  'llama-3.2': 128_000,
  'llama3.3': 128_000,
  'llama-3.3': 128_000,
  llama4: 128_000,
  'llama-4': 128_000,
  codellama: 16_384,
  // Others often met behind chat-completions endpoints.
  'deepseek-chat': 128_000,
  'deepseek-reasoner': 128_000,
  'deepseek-coder': 128_000,
  mistral: 32_768,
  'mistral-large': 128_000,
  codestral: 256_000,
};

/** The window assumed for a model found nowhere: small enough for most local servers' defaults. */
export const unknownModelContextWindow = 32_000;

/** The context window of `model` in tokens: configured windows first, then the built-in table. */
export function contextWindowOf(model: string, configured: Readonly<Record<string, number>> = {}): number {
  return (
    lookupModel(model, configured) ?? lookupModel(model, builtInContextWindows) ?? unknownModelContextWindow
  );
}
