import type { z } from 'zod';
import { WorkbenchError } from '../errors.ts';
import type { MergeRequestProvider } from './types.ts';

export interface ProviderRequest {
  provider: MergeRequestProvider;
  token: string;
  headers: Record<string, string>;
  fetch?: typeof fetch;
  /** Says what a 404 means for this call, e.g. "pull request acme/shop#3". */
  subject: string;
}

const names = { github: 'GitHub', gitlab: 'GitLab' } as const;

/**
 * GETs JSON from a provider and parses it (leniently: only the fields we read) with `schema`; every
 * failure is MERGE_REQUEST_FOLLOW_FAILED (502) with the token redacted.
 */
export async function requestJson<Schema extends z.ZodType>(
  url: string,
  request: ProviderRequest,
  schema: Schema,
): Promise<z.infer<Schema>> {
  const name = names[request.provider];
  // Providers do not echo tokens, but a proxy in front of one might, and so might a fetch error.
  const redact = (text: string): string => (request.token ? text.replaceAll(request.token, '***') : text);
  const fail = (status: number, message: string) =>
    new WorkbenchError('MERGE_REQUEST_FOLLOW_FAILED', redact(message), {
      status,
      provider: request.provider,
    });
  let response: Response;
  try {
    response = await (request.fetch ?? fetch)(url, {
      headers: request.headers,
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw fail(0, `could not reach the ${name} API at ${url}: ${reason}`);
  }
  const payload: unknown = await response.json().catch(() => null);
  if (response.ok) {
    const parsed = schema.safeParse(payload);
    if (parsed.success) return parsed.data;
    const where = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
    throw fail(
      response.status,
      `${name} answered an unexpected shape for ${request.subject}: ${where.join('; ')}`,
    );
  }
  const said = providerMessage(payload) ?? `HTTP ${response.status}`;
  const hint =
    response.status === 401 || response.status === 403
      ? `: check ${request.provider}_token in settings (it must be valid and allowed to read the repository)`
      : response.status === 404
        ? `: the merge request or repository was not found (${request.subject}), or the token cannot see it`
        : '';
  throw fail(
    response.status,
    `${name} refused reading ${request.subject} (${response.status} ${said})${hint}`,
  );
}

// GitHub answers `{message}`; GitLab `{message}` (a string or an object of field errors) or `{error}`.
function providerMessage(payload: unknown): string | null {
  if (!payload || typeof payload !== 'object') return null;
  const { message, error } = payload as { message?: unknown; error?: unknown };
  if (typeof message === 'string') return message;
  if (message && typeof message === 'object') return JSON.stringify(message);
  return typeof error === 'string' ? error : null;
}
