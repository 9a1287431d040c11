import type { ErrorObject } from './types.ts';

/**
 * A failed API call in the service's one error shape, `{"error": {"code", "message", "details"}}`. A network
 * failure or a body in another shape becomes code NETWORK_ERROR / HTTP_<status> so callers handle one type.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(status: number, error: ErrorObject) {
    super(error.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = error.code;
    this.details = error.details ?? {};
  }

  /**
   * The input fields this error is about, without the `body.` prefix of validation issues: e.g.
   * `repositories.1.path` for NOT_A_GIT_REPOSITORY, or every issue's (or problem's) field for INVALID_PARAMS.
   */
  fields(): string[] {
    const found: string[] = [];
    const field = this.details.field;
    if (typeof field === 'string') found.push(field);
    // `issues` of a request the service's validation refused; `problems` of a run request the runtime refused.
    for (const list of [this.details.issues, this.details.problems]) {
      if (!Array.isArray(list)) continue;
      for (const issue of list) {
        if (issue && typeof issue === 'object' && typeof (issue as { field?: unknown }).field === 'string') {
          found.push((issue as { field: string }).field);
        }
      }
    }
    return found.map((each) => each.replace(/^(body|query|params)\./, ''));
  }

  /** Whether this error names `field` (or a field inside it). */
  isAbout(field: string): boolean {
    return this.fields().some((each) => each === field || each.startsWith(`${field}.`));
  }

  /**
   * This error with only the validation issues `keep` accepts (by field, without the `body.` prefix), for
   * the note beside one field; null when none is left. An error without issues is kept whole.
   */
  narrowed(keep: (field: string) => boolean): ApiError | null {
    const issues = this.details.issues;
    if (!Array.isArray(issues)) {
      return this.fields().length === 0 || this.fields().some(keep) ? this : null;
    }
    const left = issues.filter((issue) => {
      const field = (issue as { field?: unknown } | null)?.field;
      return typeof field === 'string' && keep(field.replace(/^(body|query|params)\./, ''));
    });
    if (left.length === 0) return null;
    if (left.length === issues.length) return this;
    return new ApiError(this.status, {
      code: this.code,
      message: this.message,
      details: { ...this.details, issues: left },
    });
  }
}

/** Reads an error response into an ApiError, whatever its body. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = (body as { error?: ErrorObject } | undefined)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new ApiError(response.status, error);
  }
  return new ApiError(response.status, {
    code: `HTTP_${response.status}`,
    message: `The service answered ${response.status} ${response.statusText}.`.replace(' .', '.'),
  });
}

/** Any thrown value as an ApiError (fetch's own TypeError is a network failure). */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(0, {
    code: 'NETWORK_ERROR',
    message: `The service cannot be reached (${message}).`,
  });
}
