import { errorBody } from '@keel/protocol/workbench';
import type { z } from 'zod';
import { WorkbenchApiError, WorkbenchResponseError } from './errors.ts';

/** The part of `fetch` the client uses: the global one in Node ≥ 22 and browsers, or a caller's own. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export type Query = Record<string, string | number | boolean | undefined>;

export interface HttpOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  fetch: Fetch;
}

/** One REST call: sends JSON, refuses a non-2xx answer as `WorkbenchApiError`, checks the body against `schema`. */
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

export function createCall({ baseUrl, apiKey, fetch }: HttpOptions): Call {
  const root = baseUrl.replace(/\/+$/, '');
  return async (method, path, schema, options = {}) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) search.set(key, String(value));
    }
    const url = `${root}${path}${search.size > 0 ? `?${search}` : ''}`;
    const route = `${method} ${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const init: RequestInit = { method, headers };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    if (options.signal) init.signal = options.signal;
    const response = await fetch(url, init);
    const text = await response.text();
    let parsed: unknown;
    let isJson = false;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : undefined;
      isJson = text.length > 0;
    } catch {
      parsed = text;
    }
    if (!response.ok) {
      const refusal = errorBody.safeParse(parsed);
      if (refusal.success) throw new WorkbenchApiError(response.status, refusal.data.error, route);
      // Not the service's error shape (a proxy's page, say): still an API error, with what came back.
      throw new WorkbenchApiError(
        response.status,
        {
          code: `HTTP_${response.status}`,
          message: `${route} failed with ${response.status} ${response.statusText}: ${text.slice(0, 200)}`,
        },
        route,
      );
    }
    if (response.status === 204) return schema.parse(null) as z.output<typeof schema>;
    if (!isJson) throw new WorkbenchResponseError(route, 'a body that is not JSON', parsed);
    const checked = schema.safeParse(parsed);
    if (!checked.success) {
      throw new WorkbenchResponseError(
        route,
        'a body its schema does not describe',
        parsed,
        checked.error.issues,
      );
    }
    return checked.data;
  };
}
