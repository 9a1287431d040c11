import type { Usage } from './types.ts';

/**
 * Tokens (and the cost, where the runner knew the model's price) in words: "12,345 tokens · $0.0123".
 * The title says how they split.
 */
export function usageWords(usage: Usage): { text: string; title: string } {
  const cost = usage.cost_usd ? ` · $${usage.cost_usd.toFixed(usage.cost_usd < 1 ? 4 : 2)}` : '';
  return {
    text: `${usage.total_tokens.toLocaleString('en-US')} tokens${cost}`,
    title: `${usage.input_tokens.toLocaleString('en-US')} in, ${usage.output_tokens.toLocaleString('en-US')} out`,
  };
}
