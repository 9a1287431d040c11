// What httpGet sends on after a redirect: credentials only to the origin they were given for (a search
// API's key, Authorization, GitLab's PRIVATE-TOKEN), and a POST's body by the rules browsers follow.
import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { httpGet } from '../../../src/tools/index.ts';
import { page, type Route, redirect, startFakeWeb } from './fake-web.ts';

const limits = { timeoutMs: 10_000, maxBytes: 1024 * 1024 };
const signal = new AbortController().signal;
const headers = {
  Accept: 'application/json',
  'User-Agent': 'keel-test',
  Authorization: 'Bearer secret-a',
  'PRIVATE-TOKEN': 'secret-b',
  'x-subscription-token': 'secret-c',
  cookie: 'session=secret-d',
};

/** A route that answers 200 with the method and body it received, as JSON. */
const echo: Route = (request, response) => {
  void bodyOf(request).then((body) => {
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ method: request.method, body, type: request.headers['content-type'] ?? null }));
  });
};

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('httpGet redirects', () => {
  test('another origin gets only Accept and User-Agent; the first origin got everything', async () => {
    await using other = await startFakeWeb({ '/land': page('text/plain', 'landed') });
    await using first = await startFakeWeb({ '/start': redirect(`${other.base}/land`) });

    const response = await httpGet(new URL(`${first.base}/start`), { ...limits, signal, headers });

    expect(response.url.href).toBe(`${other.base}/land`);
    expect(first.requests[0]?.headers).toMatchObject({
      authorization: 'Bearer secret-a',
      'private-token': 'secret-b',
      'x-subscription-token': 'secret-c',
      cookie: 'session=secret-d',
    });
    const sent = other.requests[0]?.headers ?? {};
    expect(sent).toMatchObject({ accept: 'application/json', 'user-agent': 'keel-test' });
    for (const name of ['authorization', 'private-token', 'x-subscription-token', 'cookie']) {
      expect(sent[name]).toBeUndefined();
    }
  });

  test('the same origin keeps every header', async () => {
    await using web = await startFakeWeb({ '/a': redirect('/b', 301), '/b': page('text/plain', 'b') });

    await httpGet(new URL(`${web.base}/a`), { ...limits, signal, headers });

    expect(web.requests.map((request) => request.path)).toEqual(['/a', '/b']);
    expect(web.requests[1]?.headers).toMatchObject({
      authorization: 'Bearer secret-a',
      'private-token': 'secret-b',
      'x-subscription-token': 'secret-c',
    });
  });

  test.each([
    [307, { method: 'POST', body: '{"title":"x"}', type: 'application/json' }],
    [308, { method: 'POST', body: '{"title":"x"}', type: 'application/json' }],
    [303, { method: 'GET', body: '', type: null }],
    [302, { method: 'GET', body: '', type: null }],
    [301, { method: 'GET', body: '', type: null }],
  ])('a POST redirected with %i arrives as %o', async (status, expected) => {
    await using web = await startFakeWeb({ '/post': redirect('/echo', status), '/echo': echo });

    const response = await httpGet(new URL(`${web.base}/post`), {
      ...limits,
      signal,
      method: 'POST',
      body: '{"title":"x"}',
      headers: { 'content-type': 'application/json' },
    });

    expect(JSON.parse(response.body.toString('utf8'))).toEqual(expected);
  });
});
