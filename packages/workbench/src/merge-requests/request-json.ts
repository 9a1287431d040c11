import type { z } from 'zod';
import {
  type ForgeAnswer,
  type ForgeRequest,
  forgeError,
  forgeNames,
  forgeRequest,
  redirectNote,
} from './forge-request.ts';

export type ProviderRequest = Pick<ForgeRequest, 'provider' | 'token' | 'subject'>;

/**
 * GETs JSON from a provider through the one forge client and parses it (leniently: only the fields we
 * read) with `schema`; every failure is MERGE_REQUEST_FOLLOW_FAILED (502) with the token redacted.
 */
export async function requestJson<Schema extends z.ZodType>(
  url: string,
  request: ProviderRequest,
  schema: Schema,
): Promise<z.infer<Schema>> {
  const name = forgeNames[request.provider];
  const call = { ...request, code: 'MERGE_REQUEST_FOLLOW_FAILED' as const };
  const response = await forgeRequest(url, call);
  if (!response.ok) throw refusal(url, request, response);
  const parsed = schema.safeParse(response.payload);
  if (parsed.success) return parsed.data;
  const where = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  throw forgeError(
    call,
    response.status,
    `${name} answered an unexpected shape for ${request.subject}: ${where.join('; ')}${redirectNote(response, url, request.provider)}`,
  );
}

/**
 * GETs plain text (a GitLab job's trace) from a provider through the one forge client, with the same
 * headers, bounds and failures as `requestJson`.
 */
export async function requestText(url: string, request: ProviderRequest): Promise<string> {
  const call = { ...request, code: 'MERGE_REQUEST_FOLLOW_FAILED' as const, accept: 'text/plain' };
  const response = await forgeRequest(url, call);
  if (!response.ok) throw refusal(url, request, response);
  return response.text;
}

function refusal(url: string, request: ProviderRequest, response: ForgeAnswer) {
  const call = { ...request, code: 'MERGE_REQUEST_FOLLOW_FAILED' as const };
  const said = providerMessage(response.payload) ?? `HTTP ${response.status}`;
  const moved = redirectNote(response, url, request.provider);
  const hint = moved
    ? moved
    : response.status === 401 || response.status === 403
      ? `: check ${request.provider}_token in settings (it must be valid and allowed to read the repository)`
      : response.status === 404
        ? `: the merge request or repository was not found (${request.subject}), or the token cannot see it`
        : '';
  return forgeError(
    call,
    response.status,
    `${forgeNames[request.provider]} refused reading ${request.subject} (${response.status} ${said})${hint}`,
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
