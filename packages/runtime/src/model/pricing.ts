import type { TurnUsage } from './client.ts';
import { lookupModel } from './model-names.ts';

/** What a model charges, in US dollars per million tokens. */
export interface ModelPrice {
  input_per_million: number;
  output_per_million: number;
}

/**
 * List prices of widely used hosted models, the circuit breaker's default for estimating a run's cost.
 * Prices change: the `pricing` configuration overrides or extends this table. Models not found here
 * (local models, most self-hosted servers) cost nothing, so only the token and step limits apply to them.
 */
export const builtInPrices: Readonly<Record<string, ModelPrice>> = {
  'gpt-5': { input_per_million: 1.25, output_per_million: 10 },
  'gpt-5-mini': { input_per_million: 0.25, output_per_million: 2 },
  'gpt-5-nano': { input_per_million: 0.05, output_per_million: 0.4 },
  'gpt-4.1': { input_per_million: 2, output_per_million: 8 },
  'gpt-4.1-mini': { input_per_million: 0.4, output_per_million: 1.6 },
  'gpt-4.1-nano': { input_per_million: 0.1, output_per_million: 0.4 },
  'gpt-4o': { input_per_million: 2.5, output_per_million: 10 },
  'gpt-4o-mini': { input_per_million: 0.15, output_per_million: 0.6 },
  o3: { input_per_million: 2, output_per_million: 8 },
  'o3-mini': { input_per_million: 1.1, output_per_million: 4.4 },
  'o4-mini': { input_per_million: 1.1, output_per_million: 4.4 },
  'claude-opus-4': { input_per_million: 15, output_per_million: 75 },
  'claude-opus-4-5': { input_per_million: 5, output_per_million: 25 },
  'claude-sonnet-4': { input_per_million: 3, output_per_million: 15 },
  'claude-3-7-sonnet': { input_per_million: 3, output_per_million: 15 },
  'claude-haiku-4-5': { input_per_million: 1, output_per_million: 5 },
  'claude-3-5-haiku': { input_per_million: 0.8, output_per_million: 4 },
  'deepseek-chat': { input_per_million: 0.27, output_per_million: 1.1 },
  'deepseek-reasoner': { input_per_million: 0.55, output_per_million: 2.19 },
};

/**
 * The price of `model`: the configured prices first, then the built-in table. A name matches its own
 * entry or the longest entry it begins with (`gpt-4o-2024-08-06` is priced as `gpt-4o`), and a provider
 * prefix such as `openai/` is ignored (see lookupModel). Null when the model is in neither.
 */
export function priceOf(model: string, configured: Record<string, ModelPrice> = {}): ModelPrice | null {
  return lookupModel(model, configured) ?? lookupModel(model, builtInPrices) ?? null;
}

/** The estimated cost in US dollars of one model turn; 0 for an unpriced model. */
export function costOf(price: ModelPrice | null, usage: TurnUsage): number {
  if (!price) return 0;
  return (
    (usage.input_tokens * price.input_per_million + usage.output_tokens * price.output_per_million) / 1e6
  );
}
