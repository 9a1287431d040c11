import { getEventListeners, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import OpenAI from 'openai';
import type { Stream } from 'openai/core/streaming';
import { describe, expect, test } from 'vitest';
import { postChat } from '../../src/model/chat-post.ts';
import { chatTarget } from '../../src/model/chat-target.ts';
import { httpFetch } from '../../src/model/http-fetch.ts';
import { retryAfterOf } from '../../src/model/retry.ts';

// The model client's request, sent by chat-post.ts, against what the openai client's `post` (with
// httpFetch, the client's transport before) did with the same answers: the same errors, the same events.
// Each test drives its server by hand and waits on events, never on time.

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

interface Served {
  next(): Promise<{ req: IncomingMessage; res: ServerResponse; body: Buffer }>;
  url: string;
  server: Server;
  [Symbol.asyncDispose](): Promise<void>;
}

async function serve(): Promise<Served> {
  const server = createServer();
  const waiting: [IncomingMessage, ServerResponse][] = [];
  const arrived: ((pair: [IncomingMessage, ServerResponse]) => void)[] = [];
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const taker = arrived.shift();
    if (taker) taker([req, res]);
    else waiting.push([req, res]);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    server,
    async next() {
      const [req, res] =
        waiting.shift() ??
        (await new Promise<[IncomingMessage, ServerResponse]>((resolve) => arrived.push(resolve)));
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      return { req, res, body: Buffer.concat(chunks) };
    },
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const body = Buffer.from('{"model":"m","stream":true,"messages":[]}');

interface Options {
  signal?: AbortSignal;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The request as the model client sends it now. */
const ours = (url: string, options: Options = {}) =>
  postChat({
    ...chatTarget({ baseURL: url, apiKey: 'sk-test' }, {}),
    body,
    timeoutMs: options.timeoutMs ?? 600_000,
    fetch: options.fetch,
    signal: options.signal,
  });

/** The same request as the openai client sent it. */
const theClients = (url: string, options: Options = {}) =>
  new OpenAI({
    apiKey: 'sk-test',
    baseURL: url,
    maxRetries: 0,
    timeout: options.timeoutMs ?? 600_000,
    fetch: options.fetch ?? httpFetch,
  }).post<Stream<Chunk>>('/chat/completions', {
    body,
    headers: { 'content-type': 'application/json' },
    stream: true,
    ...(options.signal ? { signal: options.signal } : {}),
  });

/** What map-error.ts and retry.ts read of an error, and what a user sees of it. */
function described(error: unknown) {
  const e = error as InstanceType<typeof OpenAI.APIError> & {
    cause?: { name?: string; message?: string; cause?: unknown };
  };
  return {
    kind: e.constructor.name,
    message: e.message,
    status: e.status,
    error: e.error,
    code: e.code,
    requestID: e.requestID,
    retryAfterMs: retryAfterOf(e.headers),
    cause: e.cause && {
      name: e.cause.name,
      message: e.cause.message,
      code: (e.cause.cause as { code?: string })?.code,
    },
  };
}

const failure = (sending: Promise<unknown>) =>
  sending.then(
    () => undefined,
    (error: unknown) => described(error),
  );

async function events(stream: AsyncIterable<Chunk>): Promise<unknown[]> {
  const seen: unknown[] = [];
  try {
    for await (const chunk of stream) seen.push(chunk);
  } catch (error) {
    seen.push(described(error));
  }
  return seen;
}

/** Sends with `send`, answers the request with `answer`, and says what the sender got. */
async function exchange(
  served: Served,
  send: typeof ours,
  answer: (res: ServerResponse) => void,
  options: Options = {},
) {
  const sending = send(served.url, options);
  const { req, res } = await served.next();
  answer(res);
  const result = await sending.then(
    async (stream) => ({ events: await events(stream) }),
    (error: unknown) => ({ error: described(error) }),
  );
  return { result, headers: req.headers };
}

const sse = (...data: string[]) => data.map((each) => `data: ${each}\n\n`).join('');
const chunk = (content: string) =>
  JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] });

describe('answers come out as the openai client made them', () => {
  test.each([
    ['a JSON error', 400, { 'x-request-id': 'req_1' }, '{"error":{"message":"bad","code":"c","param":"p"}}'],
    ['a JSON body without `error`', 422, {}, '{"detail":[{"msg":"field required"}]}'],
    ['a text body', 503, {}, 'Loading model'],
    ['an empty body', 500, {}, ''],
    ['a rate limit with Retry-After', 429, { 'retry-after': '7' }, '{"error":{"message":"slow down"}}'],
    ['a refused key', 401, {}, '{"error":{"message":"Incorrect API key"}}'],
  ])('%s (HTTP %i)', async (_, status, headers, text) => {
    await using served = await serve();
    const answer = (res: ServerResponse) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
    const now = await exchange(served, ours, answer);
    expect(now.result).toEqual((await exchange(served, theClients, answer)).result);
    expect(now.result).toMatchObject({ error: { status } });
  });

  test('a gzip error body is decoded', async () => {
    await using served = await serve();
    const answer = (res: ServerResponse) =>
      res
        .writeHead(400, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        .end(gzipSync('{"error":{"message":"too long","code":"context_length_exceeded"}}'));
    const now = await exchange(served, ours, answer);
    expect(now.result).toEqual((await exchange(served, theClients, answer)).result);
    expect(now.result).toMatchObject({ error: { code: 'context_length_exceeded' } });
  });

  test('a stream, plain or gzip, and an error sent inside it', async () => {
    await using served = await serve();
    const stream = sse(chunk('Hel'), chunk('lo'), '{"error":{"message":"overloaded"}}');
    for (const encoding of [undefined, 'gzip']) {
      const answer = (res: ServerResponse) =>
        res
          .writeHead(200, {
            'content-type': 'text/event-stream',
            ...(encoding ? { 'content-encoding': encoding } : {}),
          })
          .end(encoding ? gzipSync(stream) : stream);
      const now = await exchange(served, ours, answer);
      expect(now.result).toEqual((await exchange(served, theClients, answer)).result);
      expect((now.result as { events: unknown[] }).events).toHaveLength(3);
    }
  });

  test('the headers that matter are the same, with accept-encoding and the body as it is', async () => {
    await using served = await serve();
    const answer = (res: ServerResponse) => res.writeHead(200).end(sse('[DONE]'));
    const sending = ours(served.url);
    const now = await served.next();
    answer(now.res);
    await events(await sending);
    const before = await exchange(served, theClients, answer);
    const kept = [
      'accept',
      'authorization',
      'content-type',
      'user-agent',
      'accept-encoding',
      'content-length',
    ];
    for (const name of kept) expect(now.req.headers[name], name).toBe(before.headers[name]);
    expect(now.req.headers.authorization).toBe('Bearer sk-test');
    expect(now.req.url).toBe('/v1/chat/completions');
    expect(now.body.equals(body)).toBe(true);
  });
});

describe('failures before the answer are the openai client’s', () => {
  test('a refused connection is an APIConnectionError caused by TypeError("fetch failed")', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    server.close();
    await once(server, 'close');
    const now = await failure(ours(url));
    expect(now).toEqual(await failure(theClients(url)));
    expect(now).toMatchObject({
      kind: 'APIConnectionError',
      cause: { message: 'fetch failed', code: 'ECONNREFUSED' },
    });
  });

  test('no answer within the timeout is an APIConnectionTimeoutError, and the connection is closed', async () => {
    await using served = await serve();
    for (const send of [ours, theClients]) {
      const sending = failure(send(served.url, { timeoutMs: 50 }));
      const { req } = await served.next();
      await once(req.socket, 'close');
      expect(await sending).toMatchObject({
        kind: 'APIConnectionTimeoutError',
        cause: { name: 'AbortError' },
      });
    }
  });

  test('an abort before sending, or while waiting for the answer, is an APIUserAbortError', async () => {
    await using served = await serve();
    const reason = new Error('stopped');
    expect(await failure(ours(served.url, { signal: AbortSignal.abort(reason) }))).toEqual(
      await failure(theClients(served.url, { signal: AbortSignal.abort(reason) })),
    );
    const controller = new AbortController();
    const sending = failure(ours(served.url, { signal: controller.signal }));
    const { req } = await served.next();
    const closed = once(req.socket, 'close');
    controller.abort(reason);
    expect(await sending).toMatchObject({ kind: 'APIUserAbortError', message: 'Request was aborted.' });
    await closed;
  });

  test('an abort while the answer streams ends the stream quietly and closes the connection', async () => {
    await using served = await serve();
    const controller = new AbortController();
    const sending = ours(served.url, { signal: controller.signal });
    const { req, res } = await served.next();
    const closed = once(req.socket, 'close');
    res.writeHead(200, { 'content-type': 'text/event-stream' }).write(sse(chunk('one')));
    const seen: unknown[] = [];
    for await (const each of await sending) {
      seen.push(each);
      controller.abort();
    }
    expect(seen).toHaveLength(1);
    await closed;
    expect(res.writableEnded).toBe(false);
  });
});

test("the run's signal keeps no listener of a request once its stream ended or its answer failed", async () => {
  // A run's signal lives as long as the run: each request's hold on it must end with the request.
  await using served = await serve();
  const run = new AbortController();
  const sending = ours(served.url, { signal: run.signal });
  (await served.next()).res.writeHead(200).end(sse(chunk('one')) + sse('[DONE]'));
  expect(await events(await sending)).toHaveLength(1);
  expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  const failing = failure(ours(served.url, { signal: run.signal }));
  (await served.next()).res.writeHead(500).end('{"error":{"message":"down"}}');
  expect(await failing).toMatchObject({ status: 500 });
  expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
});

test('a fetch in the settings sends the request, and its answer is read', async () => {
  await using served = await serve();
  const asked: [string, RequestInit][] = [];
  const recording: typeof fetch = (input, init) => {
    asked.push([String(input), init ?? {}]);
    return fetch(input, init);
  };
  const answer = (res: ServerResponse) =>
    res.writeHead(429, { 'retry-after': '3' }).end('{"error":{"message":"later"}}');
  const now = await exchange(served, ours, answer, { fetch: recording });
  expect(now.result).toEqual((await exchange(served, theClients, answer, { fetch: recording })).result);
  expect(now.result).toMatchObject({ error: { status: 429, retryAfterMs: 3000 } });
  const [url, init] = asked[0]!;
  expect(url).toBe(`${served.url}/chat/completions`);
  expect(init).toMatchObject({ method: 'POST', body });
  expect(new Headers(init.headers).get('authorization')).toBe('Bearer sk-test');
  // The fetch decodes the answer itself: no accept-encoding is added for it.
  expect(new Headers(init.headers).has('accept-encoding')).toBe(false);
});

describe('chatTarget', () => {
  test('the URL as the client built it, a query kept after the path', () => {
    for (const baseURL of [
      'http://h:1/v1',
      'http://h:1/v1/',
      'https://x.azure.com/openai/deployments/d?api-version=2024-02-01',
    ]) {
      const client = new OpenAI({ apiKey: 'k', baseURL });
      expect(chatTarget({ baseURL, apiKey: 'k' }, {}).url).toBe(
        client.buildURL('/chat/completions', undefined),
      );
    }
  });

  test("the client's environment: OPENAI_BASE_URL where none is set, organization, project, custom headers", () => {
    const env = {
      OPENAI_BASE_URL: ' http://env:2/v1 ',
      OPENAI_ORG_ID: 'org-1',
      OPENAI_PROJECT_ID: 'proj-1',
      OPENAI_CUSTOM_HEADERS: 'X-Gateway: blue\nAuthorization: Bearer gateway',
    };
    expect(chatTarget({ apiKey: 'k' }, env)).toEqual({
      url: 'http://env:2/v1/chat/completions',
      headers: {
        accept: 'application/json',
        'user-agent': expect.stringMatching(/^OpenAI\/JS \d/),
        'openai-organization': 'org-1',
        'openai-project': 'proj-1',
        authorization: 'Bearer gateway',
        'x-gateway': 'blue',
        'content-type': 'application/json',
      },
    });
    expect(chatTarget({ baseURL: 'http://set/v1', apiKey: 'k' }, env).url).toBe(
      'http://set/v1/chat/completions',
    );
    expect(chatTarget({ apiKey: 'k' }, {}).url).toBe('https://api.openai.com/v1/chat/completions');
  });

  test('a header that cannot be sent is a TypeError, not a network error', () => {
    expect(() => chatTarget({ apiKey: 'sk\nx' }, {})).toThrow(TypeError);
  });
});
