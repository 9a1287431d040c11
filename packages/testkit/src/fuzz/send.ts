import type { FuzzRequest } from './requests.ts';

/** What came back, or why nothing did. */
export interface FuzzResponse {
  status: number;
  body: string;
  error?: string;
}

/** Sends one request; an event stream counts as answered once its head arrives. */
export async function send(base: string, request: FuzzRequest, timeoutMs: number): Promise<FuzzResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: controller.signal,
    });
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      controller.abort();
      return { status: response.status, body: '' };
    }
    return { status: response.status, body: await response.text() };
  } catch (error) {
    const reason = controller.signal.aborted ? `no answer within ${timeoutMs} ms` : String(error);
    return { status: 0, body: '', error: reason };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Why an answer breaks the promise (no 5xx, errors in the shape), or undefined when it keeps it. A 5xx
 * is allowed only with one of `specified5xx`: codes the spec itself answers with a 5xx (TOOL_ERROR, say).
 */
export function breach(response: FuzzResponse, specified5xx: readonly string[] = []): string | undefined {
  if (response.error !== undefined) return response.error;
  if (response.status < 400) return undefined;
  let code: unknown;
  try {
    const parsed = JSON.parse(response.body) as { error?: { code?: unknown; message?: unknown } };
    code = parsed.error?.code;
    const wellFormed =
      typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code) && typeof parsed.error?.message === 'string';
    if (!wellFormed) return `status ${response.status} outside the error shape`;
  } catch {
    return `status ${response.status} outside the error shape`;
  }
  if (response.status >= 500 && !specified5xx.includes(code as string))
    return `status ${response.status} ${code}`;
  return undefined;
}
