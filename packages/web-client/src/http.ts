import { errorBody } from '@keel/protocol/runtime';
import type { z } from 'zod';
import { KeelWebApiError, KeelWebResponseError } from './errors.ts';

/** The part of `fetch` the client uses: the global one in Node ≥ 22 and browsers, or a caller's own. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export type Query = Record<string, string | number | boolean | undefined>;

export interface HttpOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  fetch: Fetch;
}

/** One REST call: sends JSON, refuses a non-2xx answer as `KeelWebApiError`, checks the body against `schema`. */
export type Call = <S extends z.ZodType>(
  method: string,
  path: string,
  schema: S,
  options?: { body?: unknown; query?: Query; signal?: AbortSignal | undefined },
) => Promise<z.output<S>>;

/** Path segments are ids the caller passes: encoded, so an id cannot step into another route. */
export function segment(id: string): string {
  return encodeURIComponent(id);
}

/** `path` under the base URL with the query's set values. */
export function urlOf(baseUrl: string, path: string, query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) search.set(key, String(value));
  }
  return `${baseUrl.replace(/\/+$/, '')}${path}${search.size > 0 ? `?${search}` : ''}`;
}

/** The key as keel-web takes it over HTTP (spec section 5). */
export function authHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/** A refusal as `KeelWebApiError`: the server's error object, or one made from what came back instead. */
export function refusal(response: Response, text: string, route: string): KeelWebApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {}
  const body = errorBody.safeParse(parsed);
  if (body.success) return new KeelWebApiError(response.status, body.data.error, route);
  // Not the server's error shape (a proxy's page, say): still an API error, with what came back.
  return new KeelWebApiError(
    response.status,
    {
      code: `HTTP_${response.status}`,
      message: `${route} failed with ${response.status} ${response.statusText}: ${text.slice(0, 200)}`,
    },
    route,
  );
}

export function createCall({ baseUrl, apiKey, fetch }: HttpOptions): Call {
  return async (method, path, schema, options = {}) => {
    const route = `${method} ${path}`;
    const headers: Record<string, string> = { accept: 'application/json', ...authHeaders(apiKey) };
    const init: RequestInit = { method, headers };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    if (options.signal) init.signal = options.signal;
    const response = await fetch(urlOf(baseUrl, path, options.query), init);
    const text = await response.text();
    if (!response.ok) throw refusal(response, text, route);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new KeelWebResponseError(route, 'a body that is not JSON', text);
    }
    const checked = schema.safeParse(parsed);
    if (!checked.success) {
      throw new KeelWebResponseError(
        route,
        'a body its schema does not describe',
        parsed,
        checked.error.issues,
      );
    }
    return checked.data;
  };
}
