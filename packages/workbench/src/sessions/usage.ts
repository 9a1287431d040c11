import type { Usage } from '@keel/protocol/workbench';

/**
 * Token counts (and cost, where a runner knows its model's price) added up: a session's over its turns, a
 * task's over its sessions. Null when nothing was counted; a cost only when some part had one.
 */
export function addUsage(...parts: (Usage | null | undefined)[]): Usage | null {
  const counted = parts.filter((part): part is Usage => Boolean(part));
  if (counted.length === 0) return null;
  const sum = (key: 'input_tokens' | 'output_tokens' | 'total_tokens') =>
    counted.reduce((total, part) => total + part[key], 0);
  const costs = counted.flatMap((part) => (part.cost_usd === undefined ? [] : [part.cost_usd]));
  return {
    input_tokens: sum('input_tokens'),
    output_tokens: sum('output_tokens'),
    total_tokens: sum('total_tokens'),
    ...(costs.length > 0 ? { cost_usd: costs.reduce((total, cost) => total + cost, 0) } : {}),
  };
}
