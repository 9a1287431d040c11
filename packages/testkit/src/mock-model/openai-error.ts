/** OpenAI's error body: `{"error": {"message", "type", "param", "code"}}`. */
export type OpenAIErrorBody = {
  error: { message: string; type: string; param: string | null; code: string | null };
};

const byStatus: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Bad request' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided' },
  403: { type: 'permission_error', code: null, message: 'Permission denied' },
  404: { type: 'invalid_request_error', code: 'not_found', message: 'Not found' },
  405: { type: 'invalid_request_error', code: 'method_not_allowed', message: 'Method not allowed' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached' },
  500: { type: 'server_error', code: null, message: 'The server had an error processing your request' },
  503: { type: 'server_error', code: null, message: 'The engine is currently overloaded' },
};

/** Build an error body shaped like OpenAI's for an HTTP status, with a default message. */
export function openAIError(status: number, message?: string, code?: string): OpenAIErrorBody {
  const known = byStatus[status] ?? {
    type: status >= 500 ? 'server_error' : 'invalid_request_error',
    code: null,
    message: `HTTP ${status}`,
  };
  return {
    error: { message: message ?? known.message, type: known.type, param: null, code: code ?? known.code },
  };
}
