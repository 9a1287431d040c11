import type { ErrorObject } from '@keel/protocol/workbench';

/**
 * The workbench refused a request: a non-2xx answer in its error shape `{error: {code, message, details}}`
 * (`code` is one of the workbench README's "Errors" table), or an `error` message on the WebSocket (then
 * `status` is null: the socket carries no HTTP status).
 */
export class WorkbenchApiError extends Error {
  override readonly name = 'WorkbenchApiError';
  /** The HTTP status, or null for an error the WebSocket sent. */
  readonly status: number | null;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  /** The request, as `METHOD /api/...` with the ids filled in (or `WS /api/ws <channel>`). */
  readonly route: string;

  constructor(status: number | null, error: ErrorObject, route: string) {
    super(error.message);
    this.status = status;
    this.code = error.code;
    this.details = error.details;
    this.route = route;
  }

  static is(value: unknown): value is WorkbenchApiError {
    return value instanceof WorkbenchApiError;
  }
}

/**
 * The workbench answered something its protocol schema does not describe: a client and a service of
 * different versions, or a bug. Names the route and the first fields that did not match.
 */
export class WorkbenchResponseError extends Error {
  override readonly name = 'WorkbenchResponseError';
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

  static is(value: unknown): value is WorkbenchResponseError {
    return value instanceof WorkbenchResponseError;
  }
}

/** The WebSocket could not be (re)connected within the client's `reconnect.maxAttempts` tries in a row. */
export class WorkbenchConnectionError extends Error {
  override readonly name = 'WorkbenchConnectionError';
  readonly route: string;
  readonly attempts: number;

  constructor(route: string, attempts: number) {
    super(`${route}: no connection after ${attempts} attempt(s) in a row`);
    this.route = route;
    this.attempts = attempts;
  }
}
