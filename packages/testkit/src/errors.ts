/** Stable codes for the errors this package throws. */
export type TestkitErrorCode =
  | 'INVALID_SCRIPT'
  | 'INVALID_OPTIONS'
  | 'INVALID_ARGS'
  | 'TIMEOUT'
  | 'GIT_FAILED';

const brand = Symbol.for('keel.testkit.error');

/**
 * The one error class of @keel/testkit: a stable `code`, a message that says what to fix,
 * optional `details`. Checked with `isTestkitError` so duplicate package copies still match.
 */
export class TestkitError extends Error {
  readonly code: TestkitErrorCode;
  readonly details: unknown;
  readonly [brand] = true;

  constructor(code: TestkitErrorCode, message: string, options?: { details?: unknown; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = 'TestkitError';
    this.code = code;
    this.details = options?.details;
  }
}

export function isTestkitError(value: unknown): value is TestkitError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
