import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * The model client's transport: a `fetch` for one JSON request and its (streamed) answer, over
 * `node:http` with the global keep-alive agents. Why not the global `fetch`: each of its requests keeps
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
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = send(url, { method: init.method ?? 'GET', headers: Object.fromEntries(headers) });
    const abort = () => request.destroy(abortError(signal) as Error);
    signal?.addEventListener('abort', abort, { once: true });
    request.once('close', () => signal?.removeEventListener('abort', abort));
    request.once('response', resolve);
    request.once('error', (error) => reject(signal?.aborted ? abortError(signal) : fetchError(error)));
    request.end(bytes);
  });
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
  const nullBody = status === 204 || status === 205 || status === 304 || init.method === 'HEAD';
  if (nullBody) response.resume();
  return new Response(nullBody ? null : (Readable.toWeb(decoded(response)) as ReadableStream), {
    status,
    statusText: response.statusMessage ?? '',
    headers: answerHeaders,
  });
};

/** The body as sent, decompressed as the global `fetch` would. */
function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return response;
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

/** What `fetch` rejects with when aborted: the signal's reason, or an `AbortError`. */
function abortError(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** What `fetch` rejects with when the connection fails: a TypeError with the cause. */
function fetchError(error: Error): TypeError {
  return new TypeError('fetch failed', { cause: error });
}
