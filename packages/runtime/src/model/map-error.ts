import OpenAI from 'openai';
import { AuthenticationError, CancelledError, type KeelError, ModelError } from '../errors/index.ts';

/** Maps whatever the openai client threw to our error kinds; retry policy reads `retryable`. */
export function mapModelError(error: unknown, signal?: AbortSignal): KeelError {
  if (signal?.aborted || error instanceof OpenAI.APIUserAbortError) return new CancelledError();
  if (error instanceof OpenAI.AuthenticationError || error instanceof OpenAI.PermissionDeniedError) {
    return new AuthenticationError(`The model endpoint refused the API key (HTTP ${error.status}).`, {
      status: error.status,
    });
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelError('The model endpoint timed out.', { retryable: true, cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new ModelError(`Could not reach the model endpoint: ${error.message}`, {
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    const status = error.status;
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    return new ModelError(`The model endpoint answered HTTP ${status}: ${error.message}`, {
      retryable,
      status,
      cause: error,
    });
  }
  // A stream cut mid-way surfaces as a plain error from the body reader: treat it as a connection error.
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError(`The model stream failed: ${message}`, { retryable: true, cause: error });
}

/** Seconds from a Retry-After header of an API error, when the endpoint sent one. */
export function retryAfterSeconds(error: KeelError): number | undefined {
  const cause = error.cause;
  if (!(cause instanceof OpenAI.APIError)) return undefined;
  const value = cause.headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}
