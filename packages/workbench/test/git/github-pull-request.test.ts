import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { openGitHubPullRequest } from '../../src/git/index.ts';
import { rejection } from './helpers.ts';

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: unknown;
}

let server: Server | undefined;

/** A fake GitHub API on 127.0.0.1 answering every request with `status` and `answer`. */
async function fakeGitHub(
  status: number,
  answer: unknown,
): Promise<{ apiUrl: string; received: Received[] }> {
  const received: Received[] = [];
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    request.on('end', () => {
      received.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: JSON.parse(text),
      });
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { apiUrl: `http://127.0.0.1:${port}/api/v3/`, received };
}

afterEach(async () => {
  const running = server;
  server = undefined;
  if (running) await new Promise((resolve) => running.close(resolve));
});

const request = {
  token: 'ghp_secret123',
  owner: 'acme',
  repo: 'shop',
  head: 'keel/t1',
  base: 'main',
  title: 'Add cart',
  body: 'Body\n\n- a',
};

describe('openGitHubPullRequest', () => {
  test('posts the pull request and returns its URL and number', async () => {
    const { apiUrl, received } = await fakeGitHub(201, {
      html_url: 'https://github.com/acme/shop/pull/42',
      number: 42,
    });

    const result = await openGitHubPullRequest({ apiUrl, ...request });

    expect(result).toEqual({ url: 'https://github.com/acme/shop/pull/42', number: 42 });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/api/v3/repos/acme/shop/pulls' });
    expect(received[0]?.headers).toMatchObject({
      authorization: 'Bearer ghp_secret123',
      accept: 'application/vnd.github+json',
      'content-type': 'application/json',
    });
    expect(received[0]?.body).toEqual({
      title: 'Add cart',
      head: 'keel/t1',
      base: 'main',
      body: 'Body\n\n- a',
    });
  });

  test("a refusal is MERGE_REQUEST_FAILED (502) with GitHub's message and no token", async () => {
    const { apiUrl } = await fakeGitHub(422, {
      message: 'Validation Failed',
      errors: [
        {
          resource: 'PullRequest',
          code: 'custom',
          message: 'A pull request already exists for acme:keel/t1.',
        },
      ],
    });

    const error = await rejection(openGitHubPullRequest({ apiUrl, ...request }));

    expect(error).toMatchObject({ code: 'MERGE_REQUEST_FAILED', status: 502 });
    expect(error.message).toContain('Validation Failed: A pull request already exists for acme:keel/t1.');
    expect(error.details).toMatchObject({ status: 422 });
    expect(JSON.stringify(error)).not.toContain('ghp_secret123');
  });

  test('an unreachable API is MERGE_REQUEST_FAILED too', async () => {
    // A port nothing listens on any more.
    const { apiUrl } = await fakeGitHub(201, {});
    const running = server;
    server = undefined;
    await new Promise((resolve) => running?.close(resolve));
    const error = await rejection(openGitHubPullRequest({ apiUrl, ...request }));
    expect(error).toMatchObject({ code: 'MERGE_REQUEST_FAILED', status: 502 });
    expect(error.message).toContain('could not read an answer from the GitHub API');
    expect(error.message).toContain('the connection was refused');
  });
});
