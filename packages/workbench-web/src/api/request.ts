// `fetch` with the page's API key: what the console's @keel/web-client (`console/api/keel-web.ts`) and its
// artifact downloads call. The workbench SPA calls its service through @keel/workbench-client (`client.ts`),
// which reads the same key and reports the same 401s.
import { apiKey, reportUnauthorized } from './auth.ts';
import { asApiError } from './errors.ts';

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
