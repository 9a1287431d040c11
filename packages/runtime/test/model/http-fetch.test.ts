import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { httpFetch } from '../../src/model/http-fetch.ts';

// The model client's transport, against real local servers. Each test drives its server by hand: it
// waits for the request (`next()`), answers it, and waits on the server's events (a socket's 'close')
// rather than on time.

interface Served {
  /** The next request, with its body read in full. */
  next(): Promise<{ req: IncomingMessage; res: ServerResponse; body: Buffer }>;
  url: string;
  server: Server;
  [Symbol.asyncDispose](): Promise<void>;
}

async function serve(): Promise<Served> {
  const server = createServer();
  const waiting: IncomingMessage[] = [];
  const arrived: ((req: IncomingMessage) => void)[] = [];
  const responses = new WeakMap<IncomingMessage, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    responses.set(req, res);
    const taker = arrived.shift();
    if (taker) taker(req);
    else waiting.push(req);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    async next() {
      const req = waiting.shift() ?? (await new Promise<IncomingMessage>((resolve) => arrived.push(resolve)));
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      return { req, res: responses.get(req)!, body: Buffer.concat(chunks) };
    },
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Whether undici (the global fetch) sent the request: it adds `sec-fetch-mode`, node:http does not. */
const sentByGlobalFetch = (req: IncomingMessage) => req.headers['sec-fetch-mode'] === 'cors';

const text = (chunk: Uint8Array | undefined) => Buffer.from(chunk ?? []).toString();

describe('httpFetch sends the request as given', () => {
  test('a string body arrives as its UTF-8 bytes, with content-length, the headers and accept-encoding', async () => {
    await using served = await serve();
    const body = JSON.stringify({ text: 'héllo ✓' });
    const answer = httpFetch(`${served.url}/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Authorization: 'Bearer k', 'X-Keel': 'one' },
      body,
    });
    const { req, res, body: received } = await served.next();
    res.end('ok');
    expect(await (await answer).text()).toBe('ok');
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/chat');
    expect(received.equals(Buffer.from(body))).toBe(true);
    expect(req.headers).toMatchObject({
      'content-length': String(Buffer.byteLength(body)),
      'content-type': 'application/json',
      authorization: 'Bearer k',
      'x-keel': 'one',
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(req.headers['transfer-encoding']).toBeUndefined();
    expect(sentByGlobalFetch(req)).toBe(false);
  });

  test('a Uint8Array body (a view into a larger buffer) arrives as exactly its bytes; accept-encoding given is kept', async () => {
    await using served = await serve();
    const whole = Uint8Array.from({ length: 256 }, (_, i) => i);
    const view = whole.subarray(10, 250);
    const answer = httpFetch(new URL(`${served.url}/bytes`), {
      method: 'PUT',
      headers: new Headers({ 'accept-encoding': 'identity' }),
      body: view,
    });
    const { req, res, body: received } = await served.next();
    res.end();
    await answer;
    expect(req.method).toBe('PUT');
    expect(received.equals(Buffer.from(view))).toBe(true);
    expect(req.headers['content-length']).toBe('240');
    expect(req.headers['accept-encoding']).toBe('identity');
    expect(sentByGlobalFetch(req)).toBe(false);
  });
});

describe('httpFetch answers as fetch does', () => {
  test('a streamed answer is readable chunk by chunk before the server ends it', async () => {
    await using served = await serve();
    const answer = httpFetch(`${served.url}/stream`, { method: 'POST', body: '{}' });
    const { res } = await served.next();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"n":1}\n\n');
    const response = await answer;
    const reader = response.body!.getReader();
    expect(text((await reader.read()).value)).toBe('data: {"n":1}\n\n');
    res.write('data: {"n":2}\n\n');
    expect(text((await reader.read()).value)).toBe('data: {"n":2}\n\n');
    expect(res.writableEnded).toBe(false);
    res.end('data: [DONE]\n\n');
    let rest = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest += text(read.value);
    expect(rest).toBe('data: [DONE]\n\n');
  });

  test('a gzip answer streams decoded, chunk by chunk', async () => {
    await using served = await serve();
    const answer = httpFetch(`${served.url}/stream`);
    const { res } = await served.next();
    res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
    const gzip = createGzip({ flush: constants.Z_SYNC_FLUSH });
    gzip.pipe(res);
    gzip.write('data: one\n\n');
    const reader = (await answer).body!.getReader();
    expect(text((await reader.read()).value)).toBe('data: one\n\n');
    gzip.end('data: two\n\n');
    let rest = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest += text(read.value);
    expect(rest).toBe('data: two\n\n');
  });

  test.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('a %s answer is decoded, as the global fetch decodes it', async (encoding, compress) => {
    await using served = await serve();
    const payload = JSON.stringify({
      choices: Array.from({ length: 200 }, (_, i) => ({ index: i, text: 'é✓' })),
    });
    const read = async (via: typeof fetch) => {
      const answer = via(`${served.url}/encoded`);
      const { res } = await served.next();
      res.writeHead(200, { 'content-encoding': encoding, 'content-type': 'application/json' });
      res.end(compress(payload));
      const response = await answer;
      return { body: await response.text(), encoding: response.headers.get('content-encoding') };
    };
    const ours = await read(httpFetch);
    expect(ours).toEqual({ body: payload, encoding });
    expect(ours).toEqual(await read(fetch));
  });

  test('status, statusText and headers come through, set-cookie as several', async () => {
    await using served = await serve();
    const read = async (via: typeof fetch) => {
      const answer = via(`${served.url}/missing`);
      const { res } = await served.next();
      res.writeHead(429, 'Slow Down', {
        'content-type': 'application/json',
        'retry-after': '7',
        'x-request-id': 'abc',
        'set-cookie': ['a=1; Path=/', 'b=2; HttpOnly'],
      });
      res.end('{"error":{"message":"rate limited"}}');
      const response = await answer;
      return {
        status: response.status,
        statusText: response.statusText,
        ok: response.ok,
        cookies: response.headers.getSetCookie(),
        retryAfter: response.headers.get('retry-after'),
        requestId: response.headers.get('x-request-id'),
        type: response.headers.get('content-type'),
        body: await response.json(),
      };
    };
    const ours = await read(httpFetch);
    expect(ours).toEqual({
      status: 429,
      statusText: 'Slow Down',
      ok: false,
      cookies: ['a=1; Path=/', 'b=2; HttpOnly'],
      retryAfter: '7',
      requestId: 'abc',
      type: 'application/json',
      body: { error: { message: 'rate limited' } },
    });
    expect(ours).toEqual(await read(fetch));
  });

  test('a 204 answer, and an answer to HEAD (in any case), have a null body', async () => {
    await using served = await serve();
    const empty = httpFetch(`${served.url}/nothing`, { method: 'DELETE' });
    const first = await served.next();
    first.res.writeHead(204).end();
    const response = await empty;
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();

    const head = httpFetch(`${served.url}/head`, { method: 'head' });
    const second = await served.next();
    expect(second.req.method).toBe('HEAD');
    second.res.writeHead(200, { 'content-length': '5' }).end();
    expect((await head).body).toBeNull();
  });

  test('a redirect ends at its target (through the global fetch)', async () => {
    await using served = await serve();
    const answer = httpFetch(`${served.url}/from`);
    const first = await served.next();
    first.res.writeHead(302, { location: '/to' }).end();
    // The global fetch asks again from the start, then follows the redirect.
    const again = await served.next();
    expect(again.req.url).toBe('/from');
    again.res.writeHead(302, { location: '/to' }).end();
    const target = await served.next();
    expect(target.req.url).toBe('/to');
    target.res.end('arrived');
    const response = await answer;
    expect(response.status).toBe(200);
    expect(response.redirected).toBe(true);
    expect(response.url).toBe(`${served.url}/to`);
    expect(await response.text()).toBe('arrived');
  });
});

describe('httpFetch stops when aborted', () => {
  test('a signal aborted before the call rejects with its reason, and nothing is sent', async () => {
    await using served = await serve();
    let requests = 0;
    served.server.on('request', () => requests++);
    const reason = new Error('the user stopped');
    await expect(httpFetch(served.url, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    const plain = new AbortController();
    plain.abort();
    await expect(httpFetch(served.url, { signal: plain.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(requests).toBe(0);
  });

  test('an abort while waiting for the answer rejects with the reason and closes the connection', async () => {
    await using served = await serve();
    const controller = new AbortController();
    const answer = httpFetch(served.url, { method: 'POST', body: '{}', signal: controller.signal });
    const { req } = await served.next();
    const closed = once(req.socket, 'close');
    const reason = new Error('stop waiting');
    controller.abort(reason);
    await expect(answer).rejects.toBe(reason);
    await closed;
  });

  test.each([
    ['plain', false],
    ['gzip', true],
  ] as const)(
    'an abort while a %s answer streams fails the body read with an AbortError and closes the connection',
    async (_, gzip) => {
      await using served = await serve();
      const controller = new AbortController();
      const answer = httpFetch(served.url, { method: 'POST', body: '{}', signal: controller.signal });
      const { req, res } = await served.next();
      const closed = once(req.socket, 'close');
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      const out = gzip ? createGzip({ flush: constants.Z_SYNC_FLUSH }) : res;
      if (gzip) out.pipe(res);
      out.write('data: {"n":1}\n\n');
      const reader = (await answer).body!.getReader();
      expect(text((await reader.read()).value)).toBe('data: {"n":1}\n\n');
      controller.abort();
      await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
      await closed;
      expect(res.writableEnded).toBe(false);
    },
  );

  test('cancelling the body of an encoded answer closes the connection', async () => {
    await using served = await serve();
    const answer = httpFetch(served.url);
    const { req, res } = await served.next();
    const closed = once(req.socket, 'close');
    res.writeHead(200, { 'content-encoding': 'gzip' });
    const gzip = createGzip({ flush: constants.Z_SYNC_FLUSH });
    gzip.pipe(res);
    gzip.write('data: one\n\n');
    const reader = (await answer).body!.getReader();
    expect(text((await reader.read()).value)).toBe('data: one\n\n');
    await reader.cancel();
    await closed;
  });
});

describe('httpFetch fails as fetch does', () => {
  test('a refused connection rejects with TypeError("fetch failed") caused by the socket error', async () => {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    server.close();
    await once(server, 'close');
    const failure = async (via: typeof fetch) => {
      const error = await via(`http://127.0.0.1:${port}/v1/chat`, { method: 'POST', body: '{}' }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(TypeError);
      const { message, cause } = error as TypeError & {
        cause: NodeJS.ErrnoException & { address?: string; port?: number };
      };
      expect(cause).toBeInstanceOf(Error);
      return { message, code: cause.code, syscall: cause.syscall, address: cause.address, port: cause.port };
    };
    const ours = await failure(httpFetch);
    expect(ours).toEqual({
      message: 'fetch failed',
      code: 'ECONNREFUSED',
      syscall: 'connect',
      address: '127.0.0.1',
      port,
    });
    expect(ours).toEqual(await failure(fetch));
  });
});

describe('httpFetch leaves the rest to the global fetch', () => {
  test('a Request object, or a body that is neither text nor bytes, goes to the global fetch', async () => {
    await using served = await serve();
    const viaRequest = httpFetch(
      new Request(`${served.url}/request`, { method: 'POST', body: 'from a Request' }),
    );
    const first = await served.next();
    first.res.end('one');
    expect(await (await viaRequest).text()).toBe('one');
    expect(first.body.toString()).toBe('from a Request');
    expect(sentByGlobalFetch(first.req)).toBe(true);

    const viaForm = httpFetch(`${served.url}/form`, {
      method: 'POST',
      body: new URLSearchParams({ a: '1' }),
    });
    const second = await served.next();
    second.res.end('two');
    expect(await (await viaForm).text()).toBe('two');
    expect(second.body.toString()).toBe('a=1');
    expect(second.req.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(sentByGlobalFetch(second.req)).toBe(true);
  });

  test('a URL that is not http(s) goes to the global fetch', async () => {
    const response = await httpFetch('data:text/plain,hello%20keel');
    expect(await response.text()).toBe('hello keel');
    expect(response.headers.get('content-type')).toBe('text/plain');
  });
});
