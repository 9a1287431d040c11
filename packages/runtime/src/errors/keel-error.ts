/** Error codes of the spec's error table (section 7), plus the SDK's own. */
export type ErrorCode =
  | 'INVALID_PARAMS'
  | 'PERMISSION_DENIED'
  | 'TOOL_NOT_FOUND'
  | 'SKILL_NOT_FOUND'
  | 'SESSION_NOT_FOUND'
  | 'RUN_NOT_FOUND'
  | 'INVALID_STATE'
  | 'AGENT_NOT_FOUND'
  | 'AGENT_LIMIT_REACHED'
  | 'RATE_LIMITED'
  | 'TOOL_ERROR'
  | 'AGENT_ERROR'
  | 'SERVER_ERROR'
  | 'AUTHENTICATION_FAILED'
  | 'MODEL_ERROR'
  | 'CIRCUIT_BREAKER'
  | 'CANCELLED'
  | 'CONFIG_ERROR'
  | 'CHECKPOINT_NOT_FOUND'
  | 'APPROVAL_NOT_FOUND'
  | 'ARTIFACT_NOT_FOUND'
  | 'TIMEOUT'
  | 'BUDGET_EXCEEDED'
  | 'APPROVAL_REJECTED'
  | 'STORE_ERROR'
  /** A web project or task (`/api/projects`, `/api/tasks`) that does not exist. */
  | 'PROJECT_NOT_FOUND'
  | 'TASK_NOT_FOUND'
  /** An HTTP path no endpoint serves. */
  | 'NOT_FOUND'
  /** An HTTP request body over the server's limit. */
  | 'PAYLOAD_TOO_LARGE';

/** HTTP status of each code, used by every HTTP surface. */
export const httpStatusOf: Record<ErrorCode, number> = {
  INVALID_PARAMS: 400,
  PERMISSION_DENIED: 403,
  TOOL_NOT_FOUND: 404,
  SKILL_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  RUN_NOT_FOUND: 404,
  INVALID_STATE: 409,
  AGENT_NOT_FOUND: 404,
  AGENT_LIMIT_REACHED: 429,
  RATE_LIMITED: 429,
  TOOL_ERROR: 500,
  AGENT_ERROR: 500,
  SERVER_ERROR: 500,
  AUTHENTICATION_FAILED: 401,
  MODEL_ERROR: 502,
  CIRCUIT_BREAKER: 429,
  CANCELLED: 499,
  CONFIG_ERROR: 400,
  CHECKPOINT_NOT_FOUND: 404,
  APPROVAL_NOT_FOUND: 404,
  ARTIFACT_NOT_FOUND: 404,
  TIMEOUT: 504,
  BUDGET_EXCEEDED: 429,
  APPROVAL_REJECTED: 409,
  STORE_ERROR: 500,
  PROJECT_NOT_FOUND: 404,
  TASK_NOT_FOUND: 404,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
};

const brand = Symbol.for('keel.error');

/** The wire shape of an error: `{"error": {code, message, details?}}` carries this object. */
export interface ErrorObject {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * Base of every error the SDK raises. `code` is stable; `message` says what to do.
 * Use `KeelError.is(e)` rather than `instanceof` so duplicate package copies still match.
 */
export class KeelError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly [brand] = true;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super(message, options);
    this.name = 'KeelError';
    this.code = code;
    this.details = details;
  }

  static is(value: unknown): value is KeelError {
    return typeof value === 'object' && value !== null && (value as { [brand]?: boolean })[brand] === true;
  }

  toJSON(): ErrorObject {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** Turns anything thrown into the spec's error object, never leaking a stack trace. */
export function toErrorObject(error: unknown, fallback: ErrorCode = 'SERVER_ERROR'): ErrorObject {
  if (KeelError.is(error)) return error.toJSON();
  const message = error instanceof Error ? error.message : String(error);
  return { code: fallback, message };
}
