import type { ErrorObject } from '../index.ts';

/** A field of the answer that did not match its schema, as zod reports it. */
export interface ResponseIssue {
  path: readonly PropertyKey[];
  message: string;
}

/**
 * A service refused a request: a non-2xx answer in the error shape `{error: {code, message, details}}`
 * (`code` from that service's table), or one made from what came back instead (`HTTP_<status>`). Each
 * client subclasses it under its own name (`WorkbenchApiError`, `KeelWebApiError`).
 */
export class ServiceApiError extends Error {
  override readonly name: string = 'ServiceApiError';
  /** The HTTP status, or null for an error that came without one (a WebSocket message). */
  readonly status: number | null;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  /** The request, as `METHOD /path` with the ids filled in. */
  readonly route: string;

  constructor(status: number | null, error: ErrorObject, route: string) {
    super(error.message);
    this.status = status;
    this.code = error.code;
    this.details = error.details;
    this.route = route;
  }

  /** Any client's API error (`instanceof` across both clients). */
  static is(value: unknown): value is ServiceApiError {
    return value instanceof ServiceApiError;
  }
}

/**
 * A service answered something its protocol schema does not describe: a client and a service of different
 * versions, or a bug. Names the route and the first fields that did not match.
 */
export class ServiceResponseError extends Error {
  override readonly name: string = 'ServiceResponseError';
  readonly route: string;
  /** The zod issues (empty when the body was not JSON at all). */
  readonly issues: readonly ResponseIssue[];
  /** What was received, parsed when it was JSON. */
  readonly body: unknown;

  constructor(route: string, what: string, body: unknown, issues: readonly ResponseIssue[] = []) {
    const listed = issues
      .slice(0, 5)
      .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    super(`${route} answered ${what}${listed ? `: ${listed}` : ''}`);
    this.route = route;
    this.issues = issues;
    this.body = body;
  }

  static is(value: unknown): value is ServiceResponseError {
    return value instanceof ServiceResponseError;
  }
}

/** A stream or socket of a service could not be (re)connected within its tries in a row. */
export class ServiceConnectionError extends Error {
  override readonly name: string = 'ServiceConnectionError';
  readonly route: string;
  readonly attempts: number;

  constructor(route: string, attempts: number, options?: ErrorOptions) {
    super(`${route}: no connection after ${attempts} attempt(s) in a row`, options);
    this.route = route;
    this.attempts = attempts;
  }

  static is(value: unknown): value is ServiceConnectionError {
    return value instanceof ServiceConnectionError;
  }
}
