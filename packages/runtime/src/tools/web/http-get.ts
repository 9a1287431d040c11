import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import {
  CancelledError,
  InvalidParamsError,
  KeelError,
  TimeoutError,
  ToolError,
} from '../../errors/index.ts';
import { decodedBody, nodeHttp, nodeHttps } from '../../net/index.ts';
import { formatBytes } from '../files/text-file.ts';
import type { HostPolicy } from './host-policy.ts';
import { type FetchLimits, maxRedirects } from './web-settings.ts';

export interface HttpGetOptions extends FetchLimits {
  /** The run's cancellation. */
  signal: AbortSignal;
  headers?: Record<string, string>;
  /** Checks the first URL and every redirect's; without one, any host is reached. */
  policy?: HostPolicy | undefined;
  /**
   * The settings the limits come from, named in messages; default config `web`'s (`web.timeout_ms`,
   * `web.max_response_bytes`). A limit without a name here is not named.
   */
  limitSettings?: { timeout?: string; maxBytes?: string } | undefined;
  /**
   * Another method than GET (an API call that posts, e.g. the workbench opening a pull request) with its
   * body: a 301, 302 or 303 continues as a GET without the body, as browsers do; a 307 or 308 sends it again.
   */
  method?: string | undefined;
  body?: string | undefined;
}

const webLimitSettings = { timeout: 'web.timeout_ms', maxBytes: 'web.max_response_bytes' };

export interface HttpGetResponse {
  /** The URL that answered, after redirects. */
  url: URL;
  status: number;
  statusText: string;
  /** The Content-Type header, as sent. */
  contentType: string | undefined;
  /** The body, decompressed. */
  body: Buffer;
}

const redirects = new Set([301, 302, 303, 307, 308]);

/**
 * The only headers that follow a redirect to another origin (scheme, host or port; so https to http too).
 * Every other one was meant for the first origin: `Authorization`, `Cookie`, GitLab's `PRIVATE-TOKEN`, a
 * search API's key header. They are dropped for good: a later redirect back does not bring them again.
 */
const crossOriginHeaders = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'content-type',
  'user-agent',
]);

/**
 * GET `url` within bounds: http and https only, at most 5 redirects (each new location checked by the
 * policy again, and only harmless headers sent on to another origin), `timeoutMs` for everything, at most
 * `maxBytes` of (decompressed) body, stopped at once by the run's cancellation. Connections are never
 * reused, so each one is made through the policy's checks.
 */
export async function httpGet(url: URL, options: HttpGetOptions): Promise<HttpGetResponse> {
  const where = shown(url);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const signal = AbortSignal.any([options.signal, deadline.signal]);
  const settings = options.limitSettings ?? webLimitSettings;
  try {
    let current = url;
    let sent: Sent = { method: options.method ?? 'GET', headers: options.headers ?? {}, body: options.body };
    for (let hop = 0; ; hop++) {
      const lookup = options.policy?.check(current);
      const response = await requestOnce(current, signal, sent, lookup);
      const location = response.headers.location;
      const status = response.statusCode ?? 0;
      if (redirects.has(status) && location) {
        response.destroy();
        if (hop === maxRedirects) {
          throw new ToolError(`Too many redirects: ${where} redirected more than ${maxRedirects} times.`, {
            url: where,
            max_redirects: maxRedirects,
          });
        }
        const next = redirectTarget(location, current);
        sent = redirected(sent, status, next.origin !== current.origin);
        current = next;
        continue;
      }
      return {
        url: current,
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? '',
        contentType: response.headers['content-type'],
        body: await readBody(response, current, options.maxBytes, settings.maxBytes),
      };
    }
  } catch (error) {
    if (options.signal.aborted)
      throw new CancelledError(`The fetch of ${where} was stopped: the run was cancelled.`);
    if (deadline.signal.aborted) {
      throw new TimeoutError(
        `Fetching ${where} took longer than ${options.timeoutMs / 1000} s${named(settings.timeout)} and was stopped.`,
        { url: where, timeout_ms: options.timeoutMs },
      );
    }
    if (KeelError.is(error)) throw error;
    throw new ToolError(
      `Fetching ${where} failed: ${networkReason(error)}`,
      { url: where },
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

/** A URL webfetch may try: parses `text` and refuses other schemes. */
export function parseWebUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new InvalidParamsError(
      `Not a valid URL: "${text}". Give an absolute http:// or https:// URL, e.g. https://example.com/page.`,
      { url: text },
    );
  }
  assertWebUrl(url);
  return url;
}

function assertWebUrl(url: URL): void {
  if (url.protocol === 'http:' || url.protocol === 'https:') return;
  throw new InvalidParamsError(
    `Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}: (${url.href}).`,
    { url: url.href, scheme: url.protocol.replace(/:$/, '') },
  );
}

function redirectTarget(location: string, from: URL): URL {
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new ToolError(`${shown(from)} redirected to an invalid location: "${location}".`, {
      url: shown(from),
      location,
    });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new ToolError(
      `${shown(from)} redirected to ${shown(target)}; only http and https locations are followed.`,
      { url: shown(from), location: shown(target) },
    );
  }
  return target;
}

/** What one hop sends. */
interface Sent {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** What the next hop sends: a GET without body after a 303 (or a POST's 301/302); elsewhere, no credentials. */
function redirected(sent: Sent, status: number, crossOrigin: boolean): Sent {
  const asGet =
    status === 303 ? sent.method !== 'HEAD' : (status === 301 || status === 302) && sent.method === 'POST';
  const keep = (name: string) =>
    (!crossOrigin || crossOriginHeaders.has(name.toLowerCase())) &&
    !(asGet && name.toLowerCase() === 'content-type');
  return {
    method: asGet ? 'GET' : sent.method,
    headers: Object.fromEntries(Object.entries(sent.headers).filter(([name]) => keep(name))),
    body: asGet ? undefined : sent.body,
  };
}

function requestOnce(
  url: URL,
  signal: AbortSignal,
  sent: Sent,
  lookup: LookupFunction | undefined,
): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? nodeHttps().request : nodeHttp().request;
  return new Promise((resolve, reject) => {
    const request = send(url, {
      method: sent.method,
      agent: false,
      signal,
      headers: { 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'Keel-webfetch', ...sent.headers },
      ...(lookup ? { lookup } : {}),
    });
    request.once('response', resolve);
    request.once('error', reject);
    request.end(sent.body);
  });
}

/** The body, decompressed, refused as soon as it passes `maxBytes`. */
async function readBody(
  response: IncomingMessage,
  url: URL,
  maxBytes: number,
  setting: string | undefined,
): Promise<Buffer> {
  const tooLarge = (size: string) =>
    new ToolError(
      `The response from ${shown(url)} is too large: ${size}, over the limit of ${formatBytes(maxBytes)}` +
        `${named(setting)}.`,
      { url: shown(url), max_response_bytes: maxBytes },
    );
  const declared = Number(response.headers['content-length']);
  if (!response.headers['content-encoding'] && declared > maxBytes) {
    response.destroy();
    throw tooLarge(formatBytes(declared));
  }
  const stream = decodedBody(response);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge(`more than ${formatBytes(maxBytes)}`);
      chunks.push(chunk as Buffer);
    }
  } finally {
    if (size > maxBytes) {
      response.destroy();
      stream.destroy();
    }
  }
  return Buffer.concat(chunks);
}

/** ` (setting)` after a limit in a message, or nothing for a limit no setting changes. */
function named(setting: string | undefined): string {
  return setting ? ` (${setting})` : '';
}

function networkReason(error: unknown): string {
  const { code, message, hostname } = error as NodeJS.ErrnoException & { hostname?: string };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `the host ${hostname ?? ''} could not be resolved.`;
  if (code === 'ECONNREFUSED') return 'the connection was refused.';
  if (code === 'ECONNRESET') return 'the connection was reset.';
  if (code?.startsWith('Z_') || code?.startsWith('ERR__ERROR_FORMAT')) {
    return 'the response could not be decompressed.';
  }
  return message;
}

/** `url` for messages: without a user name or password it may carry (a configured search address). */
function shown(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  return bare.href;
}
