import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type OpenAI from 'openai';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from 'openai/core/error';
import { Stream } from 'openai/core/streaming';
import { AnswerHeaders, decodedBody, nodeHttp, nodeHttps } from '../net/index.ts';
import type { ChatTarget } from './chat-target.ts';

type ChatChunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/** One streaming chat request. */
export interface ChatPost extends ChatTarget {
  body: Uint8Array;
  /** How long the answer's head may take (the openai client's `timeout`); the stream after it has no limit. */
  timeoutMs: number;
  /** The caller's fetch (ModelSettings.fetch), to send with instead of node:http. */
  fetch?: typeof fetch | undefined;
  signal?: AbortSignal | undefined;
}

/** What the stream and an error read of an answer: a fetch `Response` has it, and so does viaHttp's. */
interface Answer {
  status: number;
  headers: Pick<Headers, 'get'>;
  body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
}

/**
 * Sends a streaming chat request and answers its events, as the openai client's `post` did and failing as
 * it failed (map-error.ts reads the errors): the caller's abort before the answer is an APIUserAbortError,
 * no answer within `timeoutMs` an APIConnectionTimeoutError, a failed connection an APIConnectionError
 * caused by fetch's TypeError, an error status `APIError.generate` of its body. Not through the client,
 * so that `keel run` never loads undici (the global fetch, `Headers` and `Response`: 18-32 ms of start-up,
 * net/builtins.ts): the client made a `Headers` for every request, and its main module reads
 * `globalThis.Headers` as it loads (lib/EventStream.mjs). Only the SDK's `openai/core/error` and
 * `openai/core/streaming` are imported, here and in the modules that read its errors.
 */
export async function postChat(post: ChatPost): Promise<AsyncIterable<ChatChunk>> {
  const { signal } = post;
  if (signal?.aborted) throw userAbort(signal);
  const { controller, release } = requestController(signal);
  const timer = setTimeout(() => controller.abort(), post.timeoutMs);
  let answer: Answer;
  try {
    answer = await (post.fetch
      ? viaFetch(post.fetch, post, controller.signal)
      : viaHttp(post, controller.signal));
  } catch (thrown) {
    release();
    throw notSent(thrown, signal);
  } finally {
    clearTimeout(timer);
  }
  if (answer.status < 200 || answer.status > 299) throw await statusError(answer).finally(release);
  return released(Stream.fromSSEResponse<ChatChunk>(answer as unknown as Response, controller), release);
}

/** The stream's chunks; once it ends, however it ends, the caller's signal no longer reaches the request. */
async function* released<T>(stream: AsyncIterable<T>, release: () => void): AsyncIterable<T> {
  try {
    yield* stream;
  } finally {
    release();
  }
}

/**
 * The request's controller, whose signal the caller's also aborts, as the client composes them: the stream
 * takes an abort of either for its end, and it aborts the controller when its reader stops early.
 */
function requestController(signal: AbortSignal | undefined): {
  controller: AbortController;
  release: () => void;
} {
  const controller = new AbortController();
  if (!signal) return { controller, release: () => {} };
  // A listener removed when the request is over, not `AbortSignal.any`: each of those, made over a run's
  // long-lived signal, stayed reachable through young-generation GCs (20,000 kept 130 MB alive on Node 24).
  const abort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', abort, { once: true });
  return { controller, release: () => signal.removeEventListener('abort', abort) };
}

async function viaFetch(send: typeof fetch, post: ChatPost, signal: AbortSignal): Promise<Answer> {
  const init = { signal, method: 'POST', headers: post.headers, body: post.body as Uint8Array<ArrayBuffer> };
  return send.call(undefined, post.url, init);
}

/**
 * Sends over node:http(s) and the global keep-alive agents, as httpFetch did (why not the global fetch:
 * http-fetch.ts); a redirect is left to the global fetch, which follows it.
 */
async function viaHttp(post: ChatPost, signal: AbortSignal): Promise<Answer> {
  const url = new URL(post.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return viaFetch(fetch, post, signal);
  const headers = {
    'accept-encoding': 'gzip, deflate, br',
    ...post.headers,
    'content-length': String(post.body.byteLength),
  };
  const send = url.protocol === 'https:' ? nodeHttps().request : nodeHttp().request;
  const request = send(url, { method: 'POST', headers });
  // Once the answer streams, an abort reaches its reader as the signal's reason, which the stream takes for
  // a quiet end: destroying only the request would fail it with "aborted" (ECONNRESET).
  let answer: Readable | undefined;
  const abort = () => {
    answer?.destroy(signal.reason);
    request.destroy(signal.reason);
  };
  signal.addEventListener('abort', abort, { once: true });
  request.once('close', () => signal.removeEventListener('abort', abort));
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    // `on`, not `once`: an error after the answer came must not be an unhandled 'error' event.
    request.on('error', (error) =>
      reject(signal.aborted ? signal.reason : new TypeError('fetch failed', { cause: error })),
    );
    request.end(post.body);
  });
  signal.throwIfAborted(); // aborted between the answer's head and here: the request is already destroyed
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400 && response.headers.location) {
    response.resume();
    return viaFetch(fetch, post, signal);
  }
  if (status === 204 || status === 205 || status === 304) response.resume();
  else answer = decodedBody(response);
  const body = answer ?? null;
  return { status, headers: new AnswerHeaders(response.headers), body, text: () => textOf(body) };
}

/** A body's text, as fetch's `text()` reads it (UTF-8, a leading BOM dropped). */
async function textOf(body: Readable | null): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body ?? []) chunks.push(chunk as Buffer);
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** What the client threw when the request got no answer (its makeRequest). */
function notSent(thrown: unknown, signal: AbortSignal | undefined): Error {
  if (signal?.aborted) return userAbort(signal);
  const error = thrown instanceof Error ? thrown : new Error(String(thrown));
  // Its own timeout aborts the request; other runtimes' timeouts say so in their words.
  const words = String(error) + ('cause' in error ? String(error.cause) : '');
  if (error.name === 'AbortError' || /timed? ?out/i.test(words)) {
    return Object.assign(new APIConnectionTimeoutError(), { cause: error });
  }
  return new APIConnectionError({ cause: error });
}

function userAbort(signal: AbortSignal): Error {
  const error = new APIUserAbortError();
  Object.defineProperty(error, 'cause', { value: signal.reason, writable: true, configurable: true });
  return error;
}

/**
 * The error of an error status, as the client made it (its makeStatusError): the body as JSON, wrapped in
 * `{error}` when it has no `error` field, else its text as the message.
 */
async function statusError(answer: Answer): Promise<Error> {
  const text = await answer
    .text()
    .catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const wrapped = json && typeof json === 'object' && (json as { error?: unknown }).error == null;
  const body = (wrapped ? { error: json } : json) as object | undefined;
  return APIError.generate(answer.status, body, json ? undefined : text, answer.headers as Headers);
}
