import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { WorkbenchError } from '../../src/errors.ts';
import { openGitHubPullRequest } from '../../src/git/index.ts';
import { parsePullUrl, readGitHubPullRequest, readMergeRequest } from '../../src/merge-requests/index.ts';
import type { FakeGitHub } from '../fakes/github-api.ts';
import { startFakeGitHub } from '../fakes/github-api.ts';
import { pullRequest } from '../fakes/github-objects.ts';
import { githubSchemaValidator } from '../fakes/github-openapi.ts';
import { startJsonServer } from '../fakes/json-server.ts';

const token = 'ghp_follow_secret_42';
let github: FakeGitHub;
let clock = 0;
/** Each event a minute after the last, so comments have an order. */
const tick = (): Date => {
  clock += 60_000;
  return new Date(clock);
};

beforeEach(async () => {
  clock = Date.parse('2026-03-01T10:00:00Z');
  github = await startFakeGitHub({ token, now: tick });
});

// close() fails the test when any response broke GitHub's OpenAPI description.
afterEach(() => github.close());

async function rejection(promise: Promise<unknown>): Promise<WorkbenchError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  if (!WorkbenchError.is(error)) throw error;
  return error;
}

async function open(head = 'keel/t1'): Promise<{ url: string; number: number }> {
  return openGitHubPullRequest({
    apiUrl: github.apiUrl,
    token,
    owner: 'acme',
    repo: 'shop',
    head,
    base: 'main',
    title: 'Add cart',
    body: 'Adds the cart.',
  });
}

const read = (url: string, secret = token) =>
  readGitHubPullRequest({ provider: 'github', apiUrl: github.apiUrl, token: secret, url });

describe('the GitHub fake', () => {
  test('openGitHubPullRequest opens a pull on it, and a second one for the same head is refused', async () => {
    const opened = await open();
    expect(opened).toEqual({ url: `${github.webUrl}/acme/shop/pull/1`, number: 1 });
    expect(github.pulls[0]).toMatchObject({
      head: 'keel/t1',
      base: 'main',
      title: 'Add cart',
      state: 'open',
    });

    const error = await rejection(open());
    expect(error).toMatchObject({ code: 'MERGE_REQUEST_FAILED', details: { status: 422 } });
    expect(error.message).toContain('Validation Failed: A pull request already exists for acme:keel/t1.');
  });

  test('a body that breaks the OpenAPI description is reported, by the validator and by the fake', async () => {
    await open();
    const validator = githubSchemaValidator();
    const template = validator.template('GET', '/repos/acme/shop/pulls/1');
    expect(template).toBe('/repos/{owner}/{repo}/pulls/{pull_number}');
    const place = { web: github.webUrl, api: github.apiUrl };
    const valid = pullRequest(place, github.pulls[0]!, { comments: 0, review_comments: 0 });
    expect(validator.validate('GET', template, 200, valid)).toBeNull();

    const { head: _head, ...headless } = valid;
    const violation = validator.validate('GET', template, 200, { ...headless, state: 'draft', merged: 'no' });
    expect(violation?.errors.join('\n')).toMatch(/must have required property 'head'/);
    expect(violation?.errors.join('\n')).toMatch(/\/state must be equal to one of the allowed values/);
    expect(violation?.errors.join('\n')).toMatch(/\/merged must be boolean/);

    // Through the server: the fake answers 500, records the violation, and the client fails.
    github.tamper = (path, body) =>
      path?.endsWith('{pull_number}') ? { ...(body as object), head: null } : body;
    const error = await rejection(read(`${github.webUrl}/acme/shop/pull/1`));
    expect(error).toMatchObject({ code: 'MERGE_REQUEST_FOLLOW_FAILED', details: { status: 500 } });
    expect(error.message).toContain('broke the OpenAPI description');
    expect(github.takeViolations()).toMatchObject([
      { method: 'GET', path: '/repos/{owner}/{repo}/pulls/{pull_number}', status: 200 },
    ]);
  });
});

describe('readGitHubPullRequest', () => {
  test('follows a pull: open, checks pending then failed, the branch moves, passes, merged', async () => {
    const { url } = await open();
    const first = github.pulls[0]!;

    let status = await read(url);
    expect(status).toMatchObject({
      provider: 'github',
      url,
      number: 1,
      state: 'open',
      head_sha: first.head_sha,
      checks: [],
      checks_state: 'none',
      comments: [],
    });

    github.setChecks('acme', 'shop', first.head_sha, [
      { name: 'build', status: 'in_progress' },
      { name: 'lint', status: 'queued' },
    ]);
    status = await read(url);
    expect(status.checks.map((check) => [check.name, check.status])).toEqual([
      ['build', 'running'],
      ['lint', 'pending'],
    ]);
    expect(status.checks_state).toBe('pending');

    github.setChecks('acme', 'shop', first.head_sha, [
      { name: 'build', status: 'completed', conclusion: 'failure', title: '2 tests failed' },
      { name: 'lint', status: 'completed', conclusion: 'success' },
    ]);
    status = await read(url);
    expect(status.checks_state).toBe('failed');
    expect(status.checks[0]).toMatchObject({ name: 'build', status: 'failed', summary: '2 tests failed' });
    expect(status.checks[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/acme\/shop\/runs\/\d+$/);

    const fixed = 'f'.repeat(40);
    github.setHead('acme', 'shop', 1, fixed);
    status = await read(url);
    expect(status).toMatchObject({ head_sha: fixed, checks_state: 'none' });

    github.setChecks('acme', 'shop', fixed, [
      { name: 'build', status: 'completed', conclusion: 'success' },
      { name: 'docs', status: 'completed', conclusion: 'skipped' },
    ]);
    status = await read(url);
    expect(status.checks_state).toBe('passed');

    github.merge('acme', 'shop', 1);
    status = await read(url);
    expect(status.state).toBe('merged');

    const reads = github.requests.filter((request) => request.method === 'GET');
    expect(reads.map((request) => request.path)).toContain(
      `/api/v3/repos/acme/shop/commits/${fixed}/check-runs`,
    );
    for (const request of reads) {
      expect(request.headers).toMatchObject({
        authorization: `Bearer ${token}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'keel-workbench',
      });
      if (!request.path.endsWith('/pulls/1')) expect(request.query.get('per_page')).toBe('100');
    }
  });

  test('a closed, unmerged pull reads closed', async () => {
    const { url } = await open();
    github.closePull('acme', 'shop', 1);
    expect((await read(url)).state).toBe('closed');
  });

  test('reads review comments with path and line, and conversation comments, in time order', async () => {
    const { url } = await open();
    github.addReviewComment('acme', 'shop', 1, { body: 'Off by one?', path: 'src/cart.ts', line: 12 });
    github.addIssueComment('acme', 'shop', 1, { body: 'Looks good otherwise.', author: 'maria' });
    github.addReviewComment('acme', 'shop', 1, { body: 'Rename this file.', path: 'src/util.ts' });

    const { comments } = await read(url);

    expect(comments).toEqual([
      expect.objectContaining({ author: 'reviewer', body: 'Off by one?', path: 'src/cart.ts', line: 12 }),
      expect.objectContaining({ author: 'maria', body: 'Looks good otherwise.', path: null, line: null }),
      expect.objectContaining({ body: 'Rename this file.', path: 'src/util.ts', line: null }),
    ]);
    expect(comments[0]?.id).toMatch(/^review:\d+$/);
    expect(comments[1]?.id).toMatch(/^issue:\d+$/);
    expect(comments[0]?.url).toContain('/acme/shop/pull/1#discussion_r');
    expect(comments[1]?.url).toContain('/acme/shop/pull/1#issuecomment-');
    expect(comments[0]?.created_at).toMatch(/^2026-03-01T10:\d\d:00Z$/);
  });

  test('a wrong token is MERGE_REQUEST_FOLLOW_FAILED naming github_token, never the token', async () => {
    const { url } = await open();
    const wrong = 'ghp_wrong_token_7';
    const error = await rejection(read(url, wrong));
    expect(error).toMatchObject({
      code: 'MERGE_REQUEST_FOLLOW_FAILED',
      status: 502,
      details: { status: 401, provider: 'github' },
    });
    expect(error.message).toContain('Bad credentials');
    expect(error.message).toContain('github_token');
    expect(JSON.stringify({ ...error.toJSON(), stack: error.stack })).not.toContain(wrong);
  });

  test('a token a proxy echoes in its refusal is redacted', async () => {
    const proxy = await startJsonServer((request) => ({
      status: 502,
      body: { message: `proxy refused ${request.headers.authorization}` },
    }));
    try {
      const error = await rejection(
        readGitHubPullRequest({
          provider: 'github',
          apiUrl: proxy.origin,
          token,
          url: 'https://github.com/a/b/pull/1',
        }),
      );
      expect(error.message).toContain('proxy refused Bearer ***');
      expect(JSON.stringify(error.toJSON())).not.toContain(token);
    } finally {
      await proxy.close();
    }
  });

  test('an unknown pull is a 404 saying it was not found', async () => {
    const error = await rejection(read(`${github.webUrl}/acme/shop/pull/9`));
    expect(error).toMatchObject({ code: 'MERGE_REQUEST_FOLLOW_FAILED', details: { status: 404 } });
    expect(error.message).toMatch(/Not Found.*not found \(pull request acme\/shop#9\)/);
  });

  test('readMergeRequest dispatches to GitHub; GHES and github.com URLs both parse', async () => {
    const { url } = await open();
    const status = await readMergeRequest({ provider: 'github', apiUrl: github.apiUrl, token, url });
    expect(status).toMatchObject({ provider: 'github', number: 1, state: 'open' });

    expect(parsePullUrl('https://github.com/acme/shop/pull/42')).toEqual({
      owner: 'acme',
      repo: 'shop',
      number: 42,
    });
    expect(parsePullUrl('https://ghe.example.com/acme/shop/pull/7/files')).toMatchObject({ number: 7 });
    expect(() => parsePullUrl('https://github.com/acme/shop/issues/7')).toThrow(
      /not a GitHub pull request URL/,
    );
  });
});
