/** Error bodies of the Anthropic and Gemini APIs (OpenAI's are in openai-error.ts). */

const anthropicTypes: Record<number, { type: string; message: string }> = {
  400: { type: 'invalid_request_error', message: 'Bad request' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  402: { type: 'billing_error', message: 'Billing error' },
  403: { type: 'permission_error', message: 'Permission denied' },
  404: { type: 'not_found_error', message: 'Not found' },
  405: { type: 'invalid_request_error', message: 'Method not allowed' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed size' },
  429: { type: 'rate_limit_error', message: 'Rate limit exceeded' },
  500: { type: 'api_error', message: 'Internal server error' },
  504: { type: 'timeout_error', message: 'Request timed out' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

/** Anthropic's error body: `{"type": "error", "error": {"type", "message"}}`. */
export function anthropicError(status: number, message?: string) {
  const known = anthropicTypes[status] ?? {
    type: status >= 500 ? 'api_error' : 'invalid_request_error',
    message: `HTTP ${status}`,
  };
  return { type: 'error', error: { type: known.type, message: message ?? known.message } };
}

const geminiStatuses: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'INVALID_ARGUMENT',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Gemini's (Google RPC) error body: `{"error": {"code", "message", "status"}}`. */
export function geminiError(status: number, message?: string) {
  const name = geminiStatuses[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
  return { error: { code: status, message: message ?? `HTTP ${status} (${name})`, status: name } };
}
