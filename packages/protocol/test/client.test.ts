// The shared core of the typed clients, against a `fetch` that answers real `Response`s: what it sends,
// how it refuses, how it checks answers, and that it stays free of Node.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createCall,
  type Fetch,
  ServiceApiError,
  ServiceConnectionError,
  type ServiceHttp,
  ServiceResponseError,
  send,
} from '@keel/protocol/client';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

class ExampleApiError extends ServiceApiError {
  override readonly name = 'ExampleApiError';
}
class ExampleResponseError extends ServiceResponseError {
  override readonly name = 'ExampleResponseError';
}

/** A service that answers `answer` and remembers every request. */
function service(answer: () => Response, key?: string) {
  const requests: { url: string; init: RequestInit }[] = [];
  const refused: number[] = [];
  const fetch: Fetch = async (url, init) => {
    requests.push({ url, init });
    return answer();
  };
  const http: ServiceHttp = {
    baseUrl: 'http://service.test/',
    key: () => key,
    fetch,
    errors: { api: ExampleApiError, response: ExampleResponseError },
    onRefused: (response) => refused.push(response.status),
  };
  return { http, call: createCall(http), requests, refused };
}

const json = (body: unknown, status = 200, statusText = 'OK') =>
  new Response(JSON.stringify(body), { status, statusText, headers: { 'content-type': 'application/json' } });

describe('@keel/protocol/client', () => {
  test('sends the query, the bearer key and a JSON body; answers the body its schema checked', async () => {
    const { call, requests } = service(() => json({ id: 'a', extra: 1 }), 'secret');
    const answer = await call('POST', '/api/things', z.object({ id: z.string() }), {
      body: { name: 'x' },
      query: { limit: 5, skip: undefined, all: true },
    });
    expect(answer).toEqual({ id: 'a' });
    expect(requests[0]?.url).toBe('http://service.test/api/things?limit=5&all=true');
    expect(requests[0]?.init).toMatchObject({
      method: 'POST',
      body: '{"name":"x"}',
      headers: {
        accept: 'application/json',
        authorization: 'Bearer secret',
        'content-type': 'application/json',
      },
    });
  });

  test("refuses a non-2xx answer as the client's API error, in the error shape or as HTTP_<status>", async () => {
    const shaped = service(() => json({ error: { code: 'NOPE', message: 'no', details: { id: 'a' } } }, 404));
    const refused = await shaped.call('GET', '/api/things/a', z.unknown()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ExampleApiError);
    expect(refused).toMatchObject({
      name: 'ExampleApiError',
      status: 404,
      code: 'NOPE',
      message: 'no',
      details: { id: 'a' },
      route: 'GET /api/things/a',
    });
    expect(ServiceApiError.is(refused)).toBe(true);
    expect(shaped.refused).toEqual([404]);

    const proxy = service(
      () => new Response('<html>proxy</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    const failed = await send(proxy.http, 'GET', '/api/flow', '*/*').catch((error: unknown) => error);
    expect(failed).toMatchObject({
      status: 502,
      code: 'HTTP_502',
      message: 'GET /api/flow failed with 502 Bad Gateway: <html>proxy</html>',
    });
  });

  test("an answer its schema does not describe is the client's response error; a 204 is checked as null", async () => {
    const drifted = service(() => json({ id: 7 }));
    const error = await drifted.call('GET', '/api/x', z.object({ id: z.string() })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExampleResponseError);
    expect((error as Error).message).toMatch(
      /^GET \/api\/x answered a body its schema does not describe: id: /,
    );

    const text = service(() => new Response('hello'));
    expect(await text.call('GET', '/api/x', z.unknown()).catch((e: unknown) => e)).toMatchObject({
      message: 'GET /api/x answered a body that is not JSON',
      body: 'hello',
      issues: [],
    });

    const empty = service(() => new Response(null, { status: 204 }));
    expect(
      await empty.call(
        'DELETE',
        '/api/x',
        z.null().transform(() => 'gone'),
      ),
    ).toBe('gone');
  });

  test('the connection error names the route and the tries', () => {
    const error = new ServiceConnectionError('GET /events', 3, { cause: 'down' });
    expect(error.message).toBe('GET /events: no connection after 3 attempt(s) in a row');
    expect(error.cause).toBe('down');
  });

  test('imports nothing of Node, and zod only through the schemas', async () => {
    const folder = join(import.meta.dirname, '../src/client');
    for (const file of await readdir(folder)) {
      const source = await readFile(join(folder, file), 'utf8');
      expect(source, file).not.toMatch(/from 'node:|require\(/);
      expect(source, file).not.toMatch(/^import \{[^}]*\} from 'zod'/m);
    }
  });
});
