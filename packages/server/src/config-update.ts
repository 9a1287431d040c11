import type { ConfigObject } from '@keel/runtime';
import { z } from 'zod';

/** Any field may be `null`, which removes the setting from the global file. */
const setting = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** Present in a body only to be refused with a message saying where credentials belong. */
const credential = z
  .never({
    error: "credentials are not stored by /config: set RUNTIME_MODEL_API_KEY in the server's environment",
  })
  .optional();

/** The body of `PUT /config`: the model, thinking settings and circuit-breaker limits. */
export const configUpdateBody = z.strictObject({
  model: setting(z.string().trim().min(1)),
  model_base_url: setting(z.url({ protocol: /^https?$/, error: 'must be an http or https URL' })),
  enable_thinking: setting(z.boolean()),
  thinking_budget: setting(z.number().int().positive()),
  cb_max_tokens: setting(z.number().int().nonnegative()),
  cb_max_cost_usd: setting(z.number().nonnegative()),
  cb_max_steps: setting(z.number().int().nonnegative()),
  model_api_key: credential,
  api_key: credential,
});

export type ConfigUpdate = z.infer<typeof configUpdateBody>;

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
