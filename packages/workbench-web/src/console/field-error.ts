import type { ApiError } from '../api/errors.ts';

/**
 * Which of a form's `fields` an API error is about: one its details name (`issues`, `problems`, `field`),
 * else one its message starts with ("workdir is not a directory: …"); null for an error about the whole.
 */
export function fieldOfError(error: ApiError | null | undefined, fields: readonly string[]): string | null {
  if (!error) return null;
  const named = fields.find((field) => error.isAbout(field));
  if (named) return named;
  const first = /^([a-z_]+)\b/.exec(error.message)?.[1];
  return first && fields.includes(first) ? first : null;
}
