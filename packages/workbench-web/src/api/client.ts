import {
  createWorkbenchClient,
  WorkbenchApiError,
  type WorkbenchClient,
  WorkbenchResponseError,
} from '@keel/workbench-client';
import { apiKey, reportUnauthorized } from './auth.ts';
import { watchedFetch } from './connection.ts';
import { ApiError, asApiError } from './errors.ts';

// Typed by hand: this file is also type-checked by the repository's Node-only configuration.
const where = (globalThis as unknown as { location?: { origin: string } }).location;

/**
 * The workbench that served the page, through @keel/workbench-client: every answer checked against its
 * protocol schema. The key is read at every request (the prompt may set it after a 401), and a 401 (or a
 * WebSocket refused with 4001) opens the prompt.
 */
export const workbench: WorkbenchClient = createWorkbenchClient({
  baseUrl: where?.origin ?? 'http://127.0.0.1:8000',
  apiKey: apiKey,
  onUnauthorized: reportUnauthorized,
  // Through the connection's watch (the page's "service gone" banner); the global is read at each call.
  fetch: (url, init) => watchedFetch(url, init),
});

/**
 * What the page shows for a failed call, as the SPA's own `ApiError` (the words of `error-words.ts`): the
 * service's refusal as it came, an answer in no error shape as "The service answered <status>.", an answer
 * its schema does not describe as UNEXPECTED_ANSWER, a network failure as NETWORK_ERROR. An abort stays
 * what it was, for the caller to recognise.
 */
export function fromClientError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (WorkbenchApiError.is(error)) {
    const status = error.status ?? 0;
    if (error.code === `HTTP_${status}`) {
      const said = /failed with (\d{3}(?: [^:]*)?):/.exec(error.message)?.[1]?.trim() ?? String(status);
      return new ApiError(status, { code: error.code, message: `The service answered ${said}.` });
    }
    return new ApiError(status, {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    });
  }
  if (WorkbenchResponseError.is(error)) {
    return new ApiError(0, {
      code: 'UNEXPECTED_ANSWER',
      message: `The workbench answered something this page does not understand (is the page older than the service? Reload it). ${error.message}`,
      details: { route: error.route },
    });
  }
  if (error instanceof Error && error.name === 'AbortError') return error;
  return asApiError(error);
}

/**
 * `client` with every method's failure (a rejection, or a throw) made into what `translate` makes of it, and
 * nothing else changed: the same resources, methods, arguments and answers, so the type is the client's own.
 * Built once (not a Proxy), so a method is the same function at every read (a React prop, a query's
 * `queryFn`). It walks plain objects of functions, as the client's resources are; an answer that is not a
 * promise (the client's `socket()`) is handed back as it is.
 */
export function translatingErrors<T extends object>(client: T, translate: (error: unknown) => unknown): T {
  const translated: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(client)) {
    if (typeof value === 'function') {
      translated[name] = (...args: unknown[]) => {
        let answer: unknown;
        try {
          // Called on its own resource, as `client.tasks.get(id)` would be: a method reading `this` still works.
          answer = value.apply(client, args);
        } catch (error) {
          throw translate(error);
        }
        return answer instanceof Promise
          ? answer.catch((error: unknown) => {
              throw translate(error);
            })
          : answer;
      };
    } else if (value !== null && typeof value === 'object') {
      translated[name] = translatingErrors(value, translate);
    } else {
      translated[name] = value;
    }
  }
  return translated as T;
}

/**
 * Every endpoint the app uses: @keel/workbench-client's own resources, methods and answers, its failures
 * as the SPA's `ApiError` (`fromClientError`). Follow sessions and tasks with the app's one socket
 * (`socket.ts`), not with `sessions.subscribe` or `tasks.watch`.
 */
export const api: WorkbenchClient = translatingErrors(workbench, fromClientError);
