// Every forge call goes through one bounded client: the token (GitHub's Authorization, GitLab's
// PRIVATE-TOKEN) never follows a redirect to another origin, a same-origin move keeps it, and a body
// without end or a redirect loop ends in a clear error. Real sockets throughout: the "forge" and the
// other host are HTTP servers on 127.0.0.1 on different ports, so different origins.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { WorkbenchError } from '../../src/errors.ts';
import { openGitHubPullRequest } from '../../src/git/index.ts';
import { maxForgeAnswerBytes, readMergeRequest } from '../../src/merge-requests/index.ts';
import { startFakeGitHub } from '../fakes/github-api.ts';
import { startFakeGitLab } from '../fakes/gitlab-api.ts';
import { type JsonServer, type RecordedRequest, startJsonServer } from '../fakes/json-server.ts';

const gitlabToken = 'glpat-redirect-secret-36';
const githubToken = 'ghp_redirect_secret_36';
const project = 'acme/shop';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started<T extends { close(): Promise<void> }>(thing: Promise<T>): Promise<T> {
  const value = await thing;
  cleanups.push(() => value.close());
  return value;
}

/** A forge that answers every request with a redirect to `to(request)`. */
function redirecting(to: (request: RecordedRequest) => string, status = 302): Promise<JsonServer> {
  return started(
    startJsonServer((request) => ({
      status,
      body: null,
      headers: { location: `${to(request)}${request.query.size ? `?${request.query}` : ''}` },
    })),
  );
}

/**
 * A front on its own origin: `/old/…` moves (`status`) to `/…` on the same origin, the rest is passed on
 * to `target` with the token it received, so the target's own check says whether the token arrived.
 */
function movedFront(
  target: string,
  tokenHeader: 'private-token' | 'authorization',
  status = 301,
): Promise<JsonServer> {
  return started(
    startJsonServer(async (request) => {
      if (request.path.startsWith('/old/')) {
        const location = `${request.path.slice('/old'.length)}${request.query.size ? `?${request.query}` : ''}`;
        return { status, body: null, headers: { location } };
      }
      const token = request.headers[tokenHeader];
      const answer = await fetch(`${target}${request.path}?${request.query}`, {
        method: request.method,
        headers: { 'content-type': 'application/json', ...(token ? { [tokenHeader]: String(token) } : {}) },
        ...(request.method === 'POST' ? { body: JSON.stringify(request.body) } : {}),
      });
      return { status: answer.status, body: await answer.json() };
    }),
  );
}

async function rejection(promise: Promise<unknown>): Promise<WorkbenchError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  if (!WorkbenchError.is(error)) throw error;
  return error;
}

const headersOf = (requests: RecordedRequest[]) => requests.map((request) => request.headers);

describe('GitLab: PRIVATE-TOKEN stays on the API origin', () => {
  test('a cross-origin redirect reaches the other host without the token, and the error says why', async () => {
    const other = await started(startFakeGitLab({ token: gitlabToken }));
    const { web_url } = other.createMergeRequest(project, {
      source_branch: 'keel/t1',
      target_branch: 'main',
      title: 'Add cart',
    });
    const forge = await redirecting((request) => `${other.webUrl}${request.path}`);

    const error = await rejection(
      readMergeRequest({
        provider: 'gitlab',
        apiUrl: `${forge.origin}/api/v4`,
        token: gitlabToken,
        url: web_url.replace(other.webUrl, forge.origin),
      }),
    );

    expect(forge.requests[0]?.headers['private-token']).toBe(gitlabToken);
    expect(other.requests.length).toBeGreaterThan(0);
    for (const headers of headersOf(other.requests)) {
      expect(headers['private-token']).toBeUndefined();
      expect(headers.authorization).toBeUndefined();
    }
    expect(error).toMatchObject({ code: 'MERGE_REQUEST_FOLLOW_FAILED', details: { status: 401 } });
    expect(error.message).toContain(`answered by ${other.webUrl} after a redirect from ${forge.origin}`);
    expect(error.message).toContain('set gitlab_api_url');
    expect(JSON.stringify(error.toJSON())).not.toContain(gitlabToken);
  });

  test('the token is dropped for good: a redirect back to the API origin does not bring it again', async () => {
    let bouncerOrigin = '';
    let forgeOrigin = '';
    const forge = await started(
      startJsonServer((request) =>
        request.path === '/back'
          ? { status: 401, body: { message: '401 Unauthorized' } }
          : { status: 302, body: null, headers: { location: `${bouncerOrigin}/away` } },
      ),
    );
    const bouncer = await started(
      startJsonServer(() => ({ status: 302, body: null, headers: { location: `${forgeOrigin}/back` } })),
    );
    [forgeOrigin, bouncerOrigin] = [forge.origin, bouncer.origin];

    await rejection(
      readMergeRequest({
        provider: 'gitlab',
        apiUrl: `${forge.origin}/api/v4`,
        token: gitlabToken,
        url: `${forge.origin}/${project}/-/merge_requests/1`,
      }),
    );

    expect(forge.requests.map((request) => request.path)).toEqual([
      `/api/v4/projects/${encodeURIComponent(project)}/merge_requests/1`,
      '/back',
    ]);
    expect(forge.requests[0]?.headers['private-token']).toBe(gitlabToken);
    expect(bouncer.requests[0]?.headers['private-token']).toBeUndefined();
    expect(forge.requests[1]?.headers['private-token']).toBeUndefined();
  });

  test('a same-origin redirect keeps the token: the moved API is read', async () => {
    const gitlab = await started(startFakeGitLab({ token: gitlabToken }));
    const { iid } = gitlab.createMergeRequest(project, {
      source_branch: 'keel/t1',
      target_branch: 'main',
      title: 'Add cart',
    });
    gitlab.setPipeline(project, iid, { status: 'success', jobs: [{ name: 'test', status: 'success' }] });
    const front = await movedFront(gitlab.webUrl, 'private-token');

    const status = await readMergeRequest({
      provider: 'gitlab',
      apiUrl: `${front.origin}/old/api/v4`,
      token: gitlabToken,
      url: `${front.origin}/${project}/-/merge_requests/${iid}`,
    });

    expect(status).toMatchObject({ provider: 'gitlab', state: 'open', checks_state: 'passed' });
    const moved = front.requests.filter((request) => !request.path.startsWith('/old/'));
    expect(moved.length).toBeGreaterThan(0);
    for (const headers of headersOf(moved)) expect(headers['private-token']).toBe(gitlabToken);
  });
});

describe('GitHub: Authorization stays on the API origin', () => {
  test('following a pull: a cross-origin redirect reaches the other host without Authorization', async () => {
    const other = await started(startFakeGitHub({ token: githubToken }));
    const pull = other.openPull('acme', 'shop', { head: 'keel/t1', base: 'main', title: 'Add cart' });
    const forge = await redirecting((request) => `${other.webUrl}${request.path}`, 307);

    const error = await rejection(
      readMergeRequest({
        provider: 'github',
        apiUrl: `${forge.origin}/api/v3`,
        token: githubToken,
        url: `${forge.origin}/acme/shop/pull/${pull.number}`,
      }),
    );

    expect(forge.requests[0]?.headers.authorization).toBe(`Bearer ${githubToken}`);
    expect(other.requests.length).toBeGreaterThan(0);
    for (const headers of headersOf(other.requests)) expect(headers.authorization).toBeUndefined();
    expect(error).toMatchObject({ code: 'MERGE_REQUEST_FOLLOW_FAILED', details: { status: 401 } });
    expect(error.message).toContain('set github_api_url');
  });

  test('opening a pull: a 307 elsewhere resends the POST without Authorization', async () => {
    const other = await started(startFakeGitHub({ token: githubToken }));
    const forge = await redirecting((request) => `${other.webUrl}${request.path}`, 307);

    const error = await rejection(
      openGitHubPullRequest({
        apiUrl: `${forge.origin}/api/v3`,
        token: githubToken,
        owner: 'acme',
        repo: 'shop',
        head: 'keel/t1',
        base: 'main',
        title: 'Add cart',
        body: 'Adds the cart.',
      }),
    );

    expect(forge.requests[0]).toMatchObject({ method: 'POST', path: '/api/v3/repos/acme/shop/pulls' });
    expect(forge.requests[0]?.headers.authorization).toBe(`Bearer ${githubToken}`);
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]).toMatchObject({ method: 'POST', body: { title: 'Add cart', head: 'keel/t1' } });
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
    expect(other.pulls).toHaveLength(0);
    expect(error).toMatchObject({ code: 'MERGE_REQUEST_FAILED', details: { status: 401 } });
    expect(error.message).toContain(`answered by ${other.webUrl} after a redirect from ${forge.origin}`);
  });

  test('opening a pull: a same-origin 307 keeps Authorization and the pull is opened', async () => {
    const github = await started(startFakeGitHub({ token: githubToken }));
    // A moved API answers 307 or 308 to a POST: a 301 or 302 would continue as a GET, as browsers do.
    const forge = await movedFront(github.webUrl, 'authorization', 308);
    const pull = await openGitHubPullRequest({
      apiUrl: `${forge.origin}/old/api/v3`,
      token: githubToken,
      owner: 'acme',
      repo: 'shop',
      head: 'keel/t1',
      base: 'main',
      title: 'Add cart',
      body: 'Adds the cart.',
    });

    expect(pull.number).toBe(1);
    expect(forge.requests.map((request) => [request.method, request.path])).toEqual([
      ['POST', '/old/api/v3/repos/acme/shop/pulls'],
      ['POST', '/api/v3/repos/acme/shop/pulls'],
    ]);
    expect(forge.requests[1]?.headers.authorization).toBe(`Bearer ${githubToken}`);
  });
});

describe('bounds', () => {
  test('a redirect loop ends as MERGE_REQUEST_FOLLOW_FAILED after 5 redirects', async () => {
    const forge = await redirecting((request) => request.path);

    const error = await rejection(
      readMergeRequest({
        provider: 'gitlab',
        apiUrl: `${forge.origin}/api/v4`,
        token: gitlabToken,
        url: `${forge.origin}/${project}/-/merge_requests/1`,
      }),
    );

    expect(error).toMatchObject({ code: 'MERGE_REQUEST_FOLLOW_FAILED', status: 502 });
    expect(error.message).toContain('Too many redirects');
    expect(forge.requests).toHaveLength(6);
  });

  test('an answer without end is cut at the size limit with a clear error', async () => {
    const endless = await endlessServer();

    const error = await rejection(
      readMergeRequest({
        provider: 'github',
        apiUrl: endless,
        token: githubToken,
        url: 'https://github.com/acme/shop/pull/1',
      }),
    );

    expect(error).toMatchObject({ code: 'MERGE_REQUEST_FOLLOW_FAILED', status: 502 });
    expect(error.message).toContain(
      'could not read an answer from the GitHub API for pull request acme/shop#1',
    );
    expect(error.message).toContain(`over the limit of ${maxForgeAnswerBytes / 1024 / 1024}.0 MB`);
  });
});

/** A server that answers 200 and writes JSON-looking bytes until the client goes away. */
async function endlessServer(): Promise<string> {
  const chunk = Buffer.from(`[${'{"a":1},'.repeat(8000)}`);
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    let open = true;
    response.on('close', () => {
      open = false;
    });
    const pump = () => {
      while (open && response.write(chunk)) {}
      if (open) response.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
