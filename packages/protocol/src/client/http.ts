import type { z } from 'zod';
import { type ErrorObject, errorBody } from '../index.ts';
import type { ResponseIssue, ServiceApiError, ServiceResponseError } from './errors.ts';

/** The part of `fetch` a client uses: the global one in Node ≥ 22 and browsers, or a caller's own. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export type Query = Record<string, string | number | boolean | undefined>;

export interface CallOptions {
  body?: unknown;
  query?: Query;
  signal?: AbortSignal | undefined;
}

/** One REST call: sends JSON, refuses a non-2xx answer as the service's API error, checks the body against `schema`. */
export type Call = <S extends z.ZodType>(
  method: string,
  path: string,
  schema: S,
  options?: CallOptions,
) => Promise<z.output<S>>;

/** How one client reaches its service: where, with which key, and the error classes it throws. */
export interface ServiceHttp {
  baseUrl: string;
  /** The key at this request (read every time): sent as `Authorization: Bearer`; nothing sends none. */
  key: () => string | undefined;
  fetch: Fetch;
  /** The client's own subclasses, so its callers catch its names. */
  errors: {
    api: new (status: number, error: ErrorObject, route: string) => ServiceApiError;
    response: new (
      route: string,
      what: string,
      body: unknown,
      issues?: readonly ResponseIssue[],
    ) => ServiceResponseError;
  };
  /** Hears every non-2xx response before the call rejects (the workbench's `onUnauthorized` on a 401). */
  onRefused?: ((response: Response) => void) | undefined;
}

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

/** A refusal as the service's API error: its error object, or one made from what came back instead. */
export function refusal(http: ServiceHttp, response: Response, text: string, route: string): ServiceApiError {
  let parsed: unknown;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  const body = errorBody.safeParse(parsed);
  if (body.success) return new http.errors.api(response.status, body.data.error, route);
  // Not the service's error shape (a proxy's page, say): still an API error, with what came back. The
  // workbench SPA reads the status words back from "failed with <status> <words>:": keep the format.
  return new http.errors.api(
    response.status,
    {
      code: `HTTP_${response.status}`,
      message: `${route} failed with ${response.status} ${response.statusText}: ${text.slice(0, 200)}`,
    },
    route,
  );
}

/** Sends one request (JSON body, bearer key); answers the 2xx response, throws the API error for any other. */
export async function send(
  http: ServiceHttp,
  method: string,
  path: string,
  accept: string,
  options: CallOptions = {},
): Promise<{ response: Response; route: string }> {
  const route = `${method} ${path}`;
  const headers: Record<string, string> = { accept };
  const key = http.key();
  if (key) headers.authorization = `Bearer ${key}`;
  const init: RequestInit = { method, headers };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  if (options.signal) init.signal = options.signal;
  const response = await http.fetch(urlOf(http.baseUrl, path, options.query), init);
  if (response.ok) return { response, route };
  http.onRefused?.(response);
  throw refusal(http, response, await response.text(), route);
}

/** The client's `call`: `send` with `accept: application/json`, the answer checked against its schema. */
export function createCall(http: ServiceHttp): Call {
  return async (method, path, schema, options = {}) => {
    const { response, route } = await send(http, method, path, 'application/json', options);
    let parsed: unknown = null;
    // A 204 has no body: its schema says what "nothing" is (`z.null()`, say).
    if (response.status !== 204) {
      const text = await response.text();
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new http.errors.response(route, 'a body that is not JSON', text);
      }
    }
    const checked = schema.safeParse(parsed);
    if (!checked.success) {
      throw new http.errors.response(
        route,
        'a body its schema does not describe',
        parsed,
        checked.error.issues,
      );
    }
    return checked.data;
  };
}
