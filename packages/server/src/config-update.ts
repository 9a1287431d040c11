import type { configUpdate } from '@keel/protocol/runtime';
import type { ConfigObject } from '@keel/runtime';
import type { z } from 'zod';

/** The body of `PUT /config` once validated (`configUpdate` of `@keel/protocol/runtime`). */
export type ConfigUpdate = z.output<typeof configUpdate>;

const topLevel = ['model', 'model_base_url', 'enable_thinking', 'thinking_budget'] as const;
/** The body's `cb_*` fields and the `circuit_breaker` keys they set. */
const breakerKeys = {
  cb_max_tokens: 'max_tokens',
  cb_max_cost_usd: 'max_cost_usd',
  cb_max_steps: 'max_steps',
} as const;

/** `current` with the update's settings written in and every other key kept as it was. */
export function applyConfigUpdate(current: ConfigObject, update: ConfigUpdate): ConfigObject {
  const next: ConfigObject = { ...current };
  for (const key of topLevel) put(next, key, update[key]);
  const breakerFields = Object.entries(breakerKeys).filter(
    ([field]) => update[field as keyof ConfigUpdate] !== undefined,
  );
  if (breakerFields.length > 0) {
    const existing = next.circuit_breaker;
    const breaker: ConfigObject =
      typeof existing === 'object' && existing !== null && !Array.isArray(existing) ? { ...existing } : {};
    for (const [field, key] of breakerFields) put(breaker, key, update[field as keyof ConfigUpdate]);
    next.circuit_breaker = breaker;
  }
  return next;
}

/** Sets `key`, removes it for null, leaves it for undefined. */
function put(target: ConfigObject, key: string, value: unknown): void {
  if (value === null) delete target[key];
  else if (value !== undefined) target[key] = value;
}
