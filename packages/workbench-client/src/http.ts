import { errorBody } from '@keel/protocol/workbench';
import type { z } from 'zod';
import { WorkbenchApiError, WorkbenchResponseError } from './errors.ts';

/** The part of `fetch` the client uses: the global one in Node ≥ 22 and browsers, or a caller's own. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export type Query = Record<string, string | number | boolean | undefined>;

/** The API key, or a function read at every request (a browser asks for it after a 401, say). */
export type ApiKey = string | (() => string | null | undefined);

export interface HttpOptions {
  baseUrl: string;
  apiKey?: ApiKey | undefined;
  fetch: Fetch;
  /** Hears every 401 before the call rejects (a page opens its key prompt). */
  onUnauthorized?: (() => void) | undefined;
}

export interface CallOptions {
  body?: unknown;
  query?: Query;
  signal?: AbortSignal | undefined;
}

/** One REST call: sends JSON, refuses a non-2xx answer as `WorkbenchApiError`, checks the body against `schema`. */
export type Call = <S extends z.ZodType>(
  method: string,
  path: string,
  schema: S,
  options?: CallOptions,
) => Promise<z.output<S>>;

/** One REST call whose answer is bytes (an image): refused as `Call` is, answered as a `Blob`. */
export type CallBlob = (method: string, path: string, options?: CallOptions) => Promise<Blob>;

/** Path segments are ids the caller passes: encoded, so an id cannot step into another route. */
export function segment(id: string): string {
  return encodeURIComponent(id);
}

/** The key now: the string, or what the function answers (nothing when empty). */
export function keyOf(apiKey: ApiKey | undefined): string | undefined {
  const key = typeof apiKey === 'function' ? apiKey() : apiKey;
  return key || undefined;
}

export function createCall({ baseUrl, apiKey, fetch, onUnauthorized }: HttpOptions): {
  call: Call;
  blob: CallBlob;
} {
  const root = baseUrl.replace(/\/+$/, '');

  /** Sends the request; answers the 2xx response, throws `WorkbenchApiError` for any other. */
  const send = async (method: string, path: string, accept: string, options: CallOptions) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) search.set(key, String(value));
    }
    const url = `${root}${path}${search.size > 0 ? `?${search}` : ''}`;
    const route = `${method} ${path}`;
    const headers: Record<string, string> = { accept };
    const key = keyOf(apiKey);
    if (key) headers.authorization = `Bearer ${key}`;
    const init: RequestInit = { method, headers };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    if (options.signal) init.signal = options.signal;
    const response = await fetch(url, init);
    if (response.ok) return { response, route };
    if (response.status === 401) onUnauthorized?.();
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
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
  };

  const call: Call = async (method, path, schema, options = {}) => {
    const { response, route } = await send(method, path, 'application/json', options);
    if (response.status === 204) return schema.parse(null) as z.output<typeof schema>;
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new WorkbenchResponseError(route, 'a body that is not JSON', text);
    }
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

  const blob: CallBlob = async (method, path, options = {}) =>
    (await send(method, path, '*/*', options)).response.blob();

  return { call, blob };
}
