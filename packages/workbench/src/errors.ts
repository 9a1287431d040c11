// The workbench's one error type. Every module throws it with a stable `code`; the HTTP layer maps it to
// `{"error": {"code", "message", "details"?}}` with the code's one status, in one handler.

/**
 * Every code the workbench answers, with its one HTTP status: a throw site names the code, never the
 * status. The README's table of codes is checked against this one (test/http/error-codes.test.ts).
 */
export const errorStatus = {
  INVALID_PARAMS: 400,
  NOT_A_DIRECTORY: 400,
  AUTHENTICATION_FAILED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  PROJECT_NOT_FOUND: 404,
  TASK_NOT_FOUND: 404,
  TODO_NOT_FOUND: 404,
  PLAN_VERSION_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  SKILL_NOT_FOUND: 404,
  CONVERSATION_NOT_FOUND: 404,
  REPOSITORY_NOT_FOUND: 404,
  RUNNER_NOT_FOUND: 404,
  QUEUED_MESSAGE_NOT_FOUND: 404,
  MCP_SERVER_NOT_FOUND: 404,
  DIRECTORY_NOT_FOUND: 404,
  FINDING_NOT_FOUND: 404,
  MERGE_REQUEST_NOT_FOUND: 404,
  MERGE_REQUEST_ITEM_NOT_FOUND: 404,
  PREVIEW_NOT_FOUND: 404,
  INVALID_STATE: 409,
  MODEL_NOT_CONFIGURED: 409,
  PROJECT_NOT_READY: 409,
  INIT_NOT_FINISHED: 409,
  PLAN_MISSING: 409,
  NO_TODOS: 409,
  INVALID_TODO_STATE: 409,
  TODO_OUT_OF_ORDER: 409,
  TASK_BUSY: 409,
  TASK_DELETING: 409,
  SESSION_BUSY: 409,
  SESSION_NOT_RUNNING: 409,
  SESSION_CLOSED: 409,
  SKILL_EXISTS: 409,
  NO_WORKSPACE: 409,
  WORKSPACE_EXISTS: 409,
  GITHUB_TOKEN_NOT_CONFIGURED: 409,
  REPOSITORY_REMOVED: 409,
  FINDING_NOT_OPEN: 409,
  NO_MERGE_REQUEST: 409,
  NO_PREVIEW_COMMAND: 409,
  NO_SETUP_COMMAND: 409,
  PREVIEW_RUNNING: 409,
  PAYLOAD_TOO_LARGE: 413,
  NOT_A_GIT_REPOSITORY: 422,
  REPOSITORY_UNUSABLE: 422,
  NO_REMOTE: 422,
  UNKNOWN_REMOTE: 422,
  UNKNOWN_RUNNER: 422,
  RUNNER_NOT_SUPPORTED: 422,
  TODO_PARSE_FAILED: 422,
  PLAN_EMPTY: 422,
  SCAN_FAILED: 422,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
  STORE_ERROR: 500,
  GIT_ERROR: 500,
  DIRECTORY_ERROR: 500,
  PUSH_FAILED: 502,
  MERGE_REQUEST_FAILED: 502,
  MERGE_REQUEST_FOLLOW_FAILED: 502,
  GIT_TIMEOUT: 504,
} as const;

export type WorkbenchErrorCode = keyof typeof errorStatus;

export interface WorkbenchErrorObject {
  code: WorkbenchErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export class WorkbenchError extends Error {
  readonly code: WorkbenchErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: WorkbenchErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'WorkbenchError';
    this.code = code;
    this.status = errorStatus[code];
    this.details = details;
  }

  /** True for a WorkbenchError, also across duplicate copies of this package (a brand, not instanceof). */
  static is(value: unknown): value is WorkbenchError {
    return value instanceof Error && (value as { name?: unknown }).name === 'WorkbenchError';
  }

  toJSON(): WorkbenchErrorObject {
    return this.details
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
}
