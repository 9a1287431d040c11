import type { ErrorObject } from '@keel/protocol/runtime';

/**
 * keel-web refused a request: a non-2xx answer in its error shape `{error: {code, message, details}}`,
 * with `code` from the spec's table (section 7: INVALID_PARAMS, SESSION_NOT_FOUND, AGENT_LIMIT_REACHED, …)
 * or the runtime's own (RUN_NOT_FOUND, INVALID_STATE, …).
 */
export class KeelWebApiError extends Error {
  override readonly name = 'KeelWebApiError';
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  /** The request, as `METHOD /path` with the ids filled in. */
  readonly route: string;

  constructor(status: number, error: ErrorObject, route: string) {
    super(error.message);
    this.status = status;
    this.code = error.code;
    this.details = error.details;
    this.route = route;
  }

  /** The spec's error object, as the server sent it. */
  get error(): ErrorObject {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }

  static is(value: unknown): value is KeelWebApiError {
    return value instanceof KeelWebApiError;
  }
}

/**
 * keel-web answered something its protocol schema does not describe: a client and a server of different
 * versions, or a bug. Names the route and the first fields that did not match.
 */
export class KeelWebResponseError extends Error {
  override readonly name = 'KeelWebResponseError';
  readonly route: string;
  /** The zod issues (empty when the body was not JSON at all). */
  readonly issues: readonly { path: readonly PropertyKey[]; message: string }[];
  /** What was received, parsed when it was JSON. */
  readonly body: unknown;

  constructor(
    route: string,
    what: string,
    body: unknown,
    issues: readonly { path: readonly PropertyKey[]; message: string }[] = [],
  ) {
    const listed = issues
      .slice(0, 5)
      .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    super(`${route} answered ${what}${listed ? `: ${listed}` : ''}`);
    this.route = route;
    this.issues = issues;
    this.body = body;
  }

  static is(value: unknown): value is KeelWebResponseError {
    return value instanceof KeelWebResponseError;
  }
}

/** A run's event stream could not be (re)connected within `reconnect.maxAttempts` tries in a row. */
export class KeelWebConnectionError extends Error {
  override readonly name = 'KeelWebConnectionError';
  readonly route: string;
  readonly attempts: number;

  constructor(route: string, attempts: number, cause?: unknown) {
    super(`${route}: no connection after ${attempts} attempt(s) in a row`, { cause });
    this.route = route;
    this.attempts = attempts;
  }

  static is(value: unknown): value is KeelWebConnectionError {
    return value instanceof KeelWebConnectionError;
  }
}
