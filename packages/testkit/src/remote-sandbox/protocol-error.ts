/** A refusal in the protocol's error shape: `{"error": {"code", "message", "details"?}}` with an HTTP status. */
export class ProtocolError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ProtocolError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  body(): { error: { code: string; message: string; details?: Record<string, unknown> } } {
    return {
      error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) },
    };
  }
}
