// The console's calls, types and event stream are @keel/web-client's: every answer checked against its
// @keel/protocol schema, a run's events followed from the last seq. Only the page's side is written here:
// the key and the 401 prompt (`authorizedFetch`), and the client's errors as the kit's `ApiError`.
import {
  createKeelWebClient,
  type Fetch,
  KeelWebApiError,
  type KeelWebClient,
  KeelWebResponseError,
} from '@keel/web-client';
import { ApiError, asApiError } from '../../api/errors.ts';
import { authorizedFetch } from '../../api/request.ts';

/**
 * What the page shows for a failed call, as the kit's `ApiError` (its field errors and words): keel-web's
 * refusal as it came (`code`, `message`, `details`), an answer in no error shape as "The service answered
 * <status>.", an answer its schema does not describe as UNEXPECTED_ANSWER, anything else as NETWORK_ERROR.
 * An abort stays what it was, for the caller to recognise.
 */
export function fromKeelWebError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (KeelWebApiError.is(error)) {
    if (error.code === `HTTP_${error.status}`) {
      // "GET /x failed with 502 Bad Gateway: <body>": the status and its words, not a proxy's page.
      const said = /failed with (\d{3}(?: [^:]*)?):/.exec(error.message)?.[1]?.trim() ?? String(error.status);
      return new ApiError(error.status, { code: error.code, message: `The service answered ${said}.` });
    }
    return new ApiError(error.status, error.error);
  }
  if (KeelWebResponseError.is(error)) {
    return new ApiError(0, {
      code: 'UNEXPECTED_ANSWER',
      message: `keel-web answered something this page does not understand (is the page older than the server? Reload it). ${error.message}`,
      details: { route: error.route },
    });
  }
  if (error instanceof Error && error.name === 'AbortError') return error;
  return asApiError(error);
}

/** `api` with every method's failure made what `fromKeelWebError` makes of it, its groups too. */
function withPageErrors<T extends object>(api: T): T {
  const entries = Object.entries(api).map(([name, value]) => {
    if (typeof value === 'function') {
      const method = value as (...args: unknown[]) => Promise<unknown>;
      const guarded = (...args: unknown[]) =>
        Promise.resolve()
          .then(() => method(...args))
          .catch((error: unknown) => {
            throw fromKeelWebError(error);
          });
      return [name, guarded];
    }
    return [name, value && typeof value === 'object' ? withPageErrors(value) : value];
  });
  return Object.fromEntries(entries) as T;
}

/**
 * A client of keel-web at `baseUrl` as the page uses it: the key read at every request (the prompt may set
 * it after a 401) and a 401 opening the prompt, both `authorizedFetch`'s (`fetch` is a test's seam); every
 * failure an `ApiError`. A run's stream is never given up: the page keeps trying (up to every 10 s) and
 * says so meanwhile.
 */
export function consoleClient(baseUrl: string, fetch: Fetch = authorizedFetch): KeelWebClient {
  return withPageErrors(
    createKeelWebClient({
      baseUrl,
      fetch,
      reconnect: { initialDelayMs: 500, maxDelayMs: 10_000, maxAttempts: Number.POSITIVE_INFINITY },
    }),
  );
}

// Typed by hand: this file is also type-checked by the repository's Node-only configuration.
const where = (globalThis as unknown as { location?: { origin: string } }).location;

/** keel-web, the server that served the page. */
export const keelWeb: KeelWebClient = consoleClient(where?.origin ?? 'http://127.0.0.1:8000');

/** The controls of a run the console offers (`keelWeb.runs[control](runId)`). */
export type RunControl = 'pause' | 'resume' | 'cancel' | 'retry' | 'recover';
