import { z } from 'zod';

/**
 * The JSON schema the model sees for a tool's arguments. `io: 'input'` so that fields with a default
 * are optional, as they are for the parser. The `$schema` key and the ±2^53 bounds zod adds to every
 * integer are dropped: they say nothing to the model and cost tokens on every request.
 */
export function toParametersSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return stripSafeIntegerBounds(json) as Record<string, unknown>;
}

function stripSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSafeIntegerBounds);
  if (typeof value !== 'object' || value === null) return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'maximum' && inner === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && inner === Number.MIN_SAFE_INTEGER) continue;
    result[key] = stripSafeIntegerBounds(inner);
  }
  return result;
}
