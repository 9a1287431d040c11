import { ServiceApiError, ServiceConnectionError, ServiceResponseError } from '@keel/protocol/client';
import type { ErrorObject } from '@keel/protocol/runtime';

/**
 * keel-web refused a request: a non-2xx answer in its error shape `{error: {code, message, details}}`,
 * with `code` from the spec's table (section 7: INVALID_PARAMS, SESSION_NOT_FOUND, AGENT_LIMIT_REACHED, …)
 * or the runtime's own (RUN_NOT_FOUND, INVALID_STATE, …). `route` is `METHOD /path` with the ids filled in.
 */
export class KeelWebApiError extends ServiceApiError {
  override readonly name = 'KeelWebApiError';
  /** The HTTP status (keel-web's errors always come with one). */
  declare readonly status: number;

  // Narrows the status to a number.
  constructor(status: number, error: ErrorObject, route: string) {
    super(status, error, route);
  }

  /** The spec's error object, as the server sent it. */
  get error(): ErrorObject {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }

  static override is(value: unknown): value is KeelWebApiError {
    return value instanceof KeelWebApiError;
  }
}

/**
 * keel-web answered something its protocol schema does not describe: a client and a server of different
 * versions, or a bug. Names the route and the first fields that did not match.
 */
export class KeelWebResponseError extends ServiceResponseError {
  override readonly name = 'KeelWebResponseError';

  static override is(value: unknown): value is KeelWebResponseError {
    return value instanceof KeelWebResponseError;
  }
}

/** A run's event stream could not be (re)connected within `reconnect.maxAttempts` tries in a row. */
export class KeelWebConnectionError extends ServiceConnectionError {
  override readonly name = 'KeelWebConnectionError';

  constructor(route: string, attempts: number, cause?: unknown) {
    super(route, attempts, { cause });
  }

  static override is(value: unknown): value is KeelWebConnectionError {
    return value instanceof KeelWebConnectionError;
  }
}
