import { z } from 'zod';

/** The error body, for the OpenAPI document of every route. */
export const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});

const anyBody = z.unknown();

/**
 * The documented responses of a route: its success body (described, not enforced) and the error statuses it
 * can answer, all in the one error shape.
 */
export function responses<const Codes extends readonly number[]>(description: string, ...codes: Codes) {
  const documented: Record<string, z.ZodType> = { '2xx': anyBody.describe(description) };
  for (const code of codes) documented[code] = errorSchema;
  return documented as { '2xx': z.ZodUnknown } & { [K in Codes[number]]: typeof errorSchema };
}

export const idParams = z.object({ id: z.string().min(1).max(200) });
