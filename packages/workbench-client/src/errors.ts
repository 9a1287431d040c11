import { ServiceApiError, ServiceConnectionError, ServiceResponseError } from '@keel/protocol/client';

/**
 * The workbench refused a request: a non-2xx answer in its error shape `{error: {code, message, details}}`
 * (`code` is one of the workbench README's "Errors" table), or an `error` message on the WebSocket (then
 * `status` is null: the socket carries no HTTP status). `route` is `METHOD /api/...` with the ids filled
 * in (or `WS /api/ws <channel>`).
 */
export class WorkbenchApiError extends ServiceApiError {
  override readonly name = 'WorkbenchApiError';

  static override is(value: unknown): value is WorkbenchApiError {
    return value instanceof WorkbenchApiError;
  }
}

/**
 * The workbench answered something its protocol schema does not describe: a client and a service of
 * different versions, or a bug. Names the route and the first fields that did not match.
 */
export class WorkbenchResponseError extends ServiceResponseError {
  override readonly name = 'WorkbenchResponseError';

  static override is(value: unknown): value is WorkbenchResponseError {
    return value instanceof WorkbenchResponseError;
  }
}

/** The WebSocket could not be (re)connected within the client's `reconnect.maxAttempts` tries in a row. */
export class WorkbenchConnectionError extends ServiceConnectionError {
  override readonly name = 'WorkbenchConnectionError';

  // The workbench's connection error carries no cause.
  constructor(route: string, attempts: number) {
    super(route, attempts);
  }

  static override is(value: unknown): value is WorkbenchConnectionError {
    return value instanceof WorkbenchConnectionError;
  }
}
