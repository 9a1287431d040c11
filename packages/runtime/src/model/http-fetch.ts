import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { decodedBody, nodeHttp, nodeHttps } from '../net/index.ts';

/**
 * A `fetch` for one JSON request and its (streamed) answer, over `node:http` with the global keep-alive
 * agents: listModels' transport, and the model client's until it sent its requests itself (chat-post.ts,
 * which keeps to node:http for the same reason). Why not the global `fetch`: each of its requests keeps
 * its body (the whole conversation, re-sent every turn) reachable through weak references that only a
 * full GC clears, so every request body survived the young-generation GCs, V8 grew the young generation
 * to its maximum and a 300-step `keel run` peaked ~90 MB higher than an 80-step one
 * (docs/performance.md, "keel run at length"). Anything else (a redirect, a body that is not text or
 * bytes, a `Request` object) goes to the global `fetch`, which handles it in full.
 */
export const httpFetch: typeof fetch = async (input, init = {}) => {
  const body = init.body;
  const simple =
    (typeof input === 'string' || input instanceof URL) &&
    (body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array);
  const url = simple ? new URL(input) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fetch(input, init);
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const headers = new Headers(init.headers);
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip, deflate, br');
  const bytes = typeof body === 'string' ? Buffer.from(body) : (body as Uint8Array | null | undefined);
  if (bytes) headers.set('content-length', String(bytes.byteLength));
  const send = url.protocol === 'https:' ? nodeHttps().request : nodeHttp().request;
  const method = (init.method ?? 'GET').toUpperCase();
  const request = send(url, { method, headers: Object.fromEntries(headers) });
  // Once the answer streams, an abort must reach its reader as the signal's reason (as with `fetch`,
  // and what the openai client takes for a quiet end): destroying only the request errors it with
  // "aborted" (ECONNRESET) instead.
  let answer: Readable | undefined;
  const abort = () => {
    const reason = abortError(signal) as Error;
    answer?.destroy(reason);
    request.destroy(reason);
  };
  signal?.addEventListener('abort', abort, { once: true });
  request.once('close', () => signal?.removeEventListener('abort', abort));
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    // `on`, not `once`: an error after the answer came must not be an unhandled 'error' event.
    request.on('error', (error) => reject(signal?.aborted ? abortError(signal) : fetchError(error)));
    request.end(bytes);
  });
  signal?.throwIfAborted(); // aborted between the answer's head and here: the request is already destroyed
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400 && response.headers.location) {
    response.resume();
    return fetch(input, init);
  }
  const answerHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      answerHeaders.append(name, each);
    }
  }
  const nullBody = status === 204 || status === 205 || status === 304 || method === 'HEAD';
  if (nullBody) response.resume();
  else answer = decodedBody(response);
  return new Response(answer ? (Readable.toWeb(answer) as ReadableStream) : null, {
    status,
    statusText: response.statusMessage ?? '',
    headers: answerHeaders,
  });
};

/** What `fetch` rejects with when aborted: the signal's reason, or an `AbortError`. */
function abortError(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** What `fetch` rejects with when the connection fails: a TypeError with the cause. */
function fetchError(error: Error): TypeError {
  return new TypeError('fetch failed', { cause: error });
}
