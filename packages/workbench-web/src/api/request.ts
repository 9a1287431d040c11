// keel-web's console's REST layer. The workbench SPA calls its service through @keel/workbench-client
// (`client.ts`), which reads the same key and reports the same 401s.
import { apiKey, reportUnauthorized } from './auth.ts';
import { asApiError, errorFromResponse } from './errors.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * `fetch` on the service that served the page, with the API key when there is one; a 401 opens the key
 * prompt. Network failures become an ApiError (NETWORK_ERROR); the response is returned whatever its status.
 */
export async function authorizedFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const key = apiKey();
  if (key) headers.set('authorization', `Bearer ${key}`);
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch (error) {
    // An abort is the caller's own doing: it stays an AbortError for the caller to recognise.
    if (init.signal?.aborted) throw error;
    throw asApiError(error);
  }
  if (response.status === 401) reportUnauthorized();
  return response;
}

/** One typed call: JSON in, JSON out, and an ApiError for anything but 2xx. */
export async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> =
    body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' };
  const response = await authorizedFetch(path, {
    method,
    headers,
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!response.ok) throw await errorFromResponse(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
