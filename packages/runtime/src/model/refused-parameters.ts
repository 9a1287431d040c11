import { APIError } from 'openai/core/error';

/** Request fields that are the request itself: never left out to please a server. */
const essential = new Set(['model', 'messages', 'stream', 'tools']);

/** A field a server refused: leave it out, or send its value under `replacement`. */
export interface RefusedParameter {
  param: string;
  replacement?: string;
}

/**
 * What each endpoint refused, by endpoint and model, for the life of the process: each run makes its
 * own client, and none should pay for the same 400 again.
 */
const remembered = new Map<string, Map<string, string | undefined>>();

const keyOf = (baseURL: string, model: string) => `${baseURL}\n${model}`;

/** The fields `baseURL` refused for `model` so far, and what to send instead (undefined: nothing). */
export function refusedFor(baseURL: string, model: string): ReadonlyMap<string, string | undefined> {
  return remembered.get(keyOf(baseURL, model)) ?? new Map();
}

export function rememberRefusal(baseURL: string, model: string, refused: RefusedParameter): void {
  const key = keyOf(baseURL, model);
  const fields = remembered.get(key) ?? new Map<string, string | undefined>();
  fields.set(refused.param, refused.replacement);
  remembered.set(key, fields);
}

/**
 * The field of `head` that a 400 (or 422) refuses: the error's `param` when it names one (OpenAI), else
 * the one field of `head` its message names ("Unrecognized request argument supplied: enable_thinking",
 * vLLM's "Extra inputs are not permitted" with the field's name). A message that says to use another
 * field instead ("Use 'max_completion_tokens' instead") gives the replacement.
 */
export function refusedParameter(
  error: unknown,
  head: Readonly<Record<string, unknown>>,
): RefusedParameter | undefined {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return undefined;
  const fields = Object.keys(head).filter((field) => !essential.has(field));
  const message = error.message;
  const named = typeof error.param === 'string' && fields.includes(error.param) ? error.param : undefined;
  const mentioned = fields.filter((field) => new RegExp(`(?:^|[^\\w])${field}(?:[^\\w]|$)`).test(message));
  const param = named ?? (mentioned.length === 1 ? mentioned[0] : undefined);
  if (param === undefined) return undefined;
  const instead = /\buse\s+['"`]?(\w+)['"`]?\s+instead\b/i.exec(message)?.[1];
  return instead && instead !== param && !(instead in head) ? { param, replacement: instead } : { param };
}

/** `head` without the refused fields, each replacement sent under its new name. */
export function withoutRefused(
  head: Readonly<Record<string, unknown>>,
  refused: ReadonlyMap<string, string | undefined>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(head)) {
    if (!refused.has(field)) out[field] = value;
    else {
      const replacement = refused.get(field);
      if (replacement !== undefined && !(replacement in head)) out[replacement] = value;
    }
  }
  return out;
}
