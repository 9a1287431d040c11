// The workbench's one error type. Every module throws it with a stable `code`; the HTTP layer maps it to
// `{"error": {"code", "message", "details"?}}` with `status`, in one handler.

export interface WorkbenchErrorObject {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export class WorkbenchError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, status: number, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'WorkbenchError';
    this.code = code;
    this.status = status;
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
