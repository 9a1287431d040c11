// The one HTTP client of every call to a forge's API (reading a merge request, opening a pull request):
// the runtime's bounded request (`httpGet`) with the forge's auth header, which never leaves the API's
// origin (scheme, host, port): a redirect elsewhere, https to http included, reaches it without the token.

import { httpGet } from '@keel/runtime/internal';
import { WorkbenchError } from '../errors.ts';
import type { MergeRequestProvider } from './types.ts';

export interface ForgeRequest {
  provider: MergeRequestProvider;
  /** Sent only in the provider's auth header, only to the API's origin, redacted from every error. */
  token: string;
  /** What the call is about, for messages, e.g. "pull request acme/shop#3". */
  subject: string;
  /** The code of every failure: reading (MERGE_REQUEST_FOLLOW_FAILED) or opening (MERGE_REQUEST_FAILED). */
  code: 'MERGE_REQUEST_FOLLOW_FAILED' | 'MERGE_REQUEST_FAILED';
  method?: 'GET' | 'POST';
  /** Sent as JSON. */
  body?: unknown;
  /** Overrides the provider's `accept` header (JSON), e.g. `text/plain` for a GitLab job's trace. */
  accept?: string;
  /** Default 30 s; redirects and the whole body included. */
  timeoutMs?: number;
}

export interface ForgeAnswer {
  status: number;
  ok: boolean;
  /** The body parsed as JSON, or null. */
  payload: unknown;
  /** The body as text (UTF-8), for an answer that is not JSON. */
  text: string;
  /** Where the answer came from, after redirects. */
  url: URL;
}

export const forgeNames = { github: 'GitHub', gitlab: 'GitLab' } as const;

/** A list of 100 check runs with their summaries fits; more is refused, not read into memory. */
export const maxForgeAnswerBytes = 16 * 1024 * 1024;
const defaultTimeoutMs = 30_000;

/**
 * Calls a forge's REST API at `url` within bounds (at most 5 redirects, `timeoutMs`, 16 MiB of answer) with
 * the provider's auth header (GitHub `Authorization: Bearer`, GitLab `PRIVATE-TOKEN`). Any HTTP status is
 * answered; what never reached an answer (unreachable, too slow, too large, a redirect loop) is thrown as
 * `request.code` (502), token redacted.
 * @example const answer = await forgeRequest(`${api}/repos/o/r/pulls/1`, {provider: 'github', token, subject, code})
 */
export async function forgeRequest(url: string, request: ForgeRequest): Promise<ForgeAnswer> {
  const name = forgeNames[request.provider];
  const target = apiAddress(url, request);
  const json = request.body === undefined ? undefined : JSON.stringify(request.body);
  try {
    const response = await httpGet(target, {
      method: request.method ?? 'GET',
      body: json,
      headers: {
        ...authHeaders(request.provider, request.token),
        ...(request.accept === undefined ? {} : { accept: request.accept }),
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        'user-agent': 'keel-workbench',
      },
      timeoutMs: request.timeoutMs ?? defaultTimeoutMs,
      maxBytes: maxForgeAnswerBytes,
      signal: new AbortController().signal,
      // No host policy: the API's address is the user's own setting, a forge on the LAN included.
      limitSettings: {},
    });
    const text = response.body.toString('utf8');
    let payload: unknown = null;
    try {
      payload = JSON.parse(text);
    } catch {}
    const ok = response.status >= 200 && response.status <= 299;
    return { status: response.status, ok, payload, text, url: response.url };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw forgeError(
      request,
      0,
      `could not read an answer from the ${name} API for ${request.subject}: ${reason}`,
    );
  }
}

/** A failure of `request`, with its code, the status (0 when no answer came) and the token redacted. */
export function forgeError(
  request: Pick<ForgeRequest, 'provider' | 'token' | 'code'>,
  status: number,
  message: string,
  details: Record<string, unknown> = {},
): WorkbenchError {
  const redacted = redact(message, request.token);
  const safe = Object.fromEntries(
    Object.entries(details).map(([key, value]) => [
      key,
      typeof value === 'string' ? redact(value, request.token) : value,
    ]),
  );
  return new WorkbenchError(request.code, redacted, { status, provider: request.provider, ...safe });
}

/**
 * Why an answer may be a refusal the token cannot fix: it came from another origin than the API's, which
 * never receives the token. Empty when the API answered itself.
 */
export function redirectNote(answer: ForgeAnswer, url: string, provider: MergeRequestProvider): string {
  const asked = new URL(url).origin;
  if (answer.url.origin === asked) return '';
  return (
    ` (answered by ${answer.url.origin} after a redirect from ${asked}: the token is sent to the origin of` +
    ` ${provider}_api_url only; if the API moved there, set ${provider}_api_url to its new address)`
  );
}

// Without a token, no auth header: the provider answers what is public.
function authHeaders(provider: MergeRequestProvider, token: string): Record<string, string> {
  if (provider === 'gitlab')
    return { accept: 'application/json', ...(token ? { 'PRIVATE-TOKEN': token } : {}) };
  return {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}

function apiAddress(url: string, request: ForgeRequest): URL {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {}
  if (parsed?.protocol === 'https:' || parsed?.protocol === 'http:') return parsed;
  throw forgeError(
    request,
    0,
    `${request.provider}_api_url does not give an http or https address (${url}): set it in settings, e.g. ${
      request.provider === 'github' ? 'https://api.github.com' : 'https://gitlab.com/api/v4'
    }.`,
  );
}

// Providers do not echo tokens, but a proxy in front of one might, and so might a transport error.
function redact(text: string, token: string): string {
  return token ? text.replaceAll(token, '***') : text;
}
