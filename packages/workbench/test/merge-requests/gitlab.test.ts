import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { WorkbenchError } from '../../src/errors.ts';
import {
  checksState,
  parseMergeRequestUrl,
  readGitLabMergeRequest,
  readMergeRequest,
} from '../../src/merge-requests/index.ts';
import type { FakeGitLab } from '../fakes/gitlab-api.ts';
import { startFakeGitLab } from '../fakes/gitlab-api.ts';

const token = 'glpat-follow-secret-42';
const project = 'acme/web/shop';
let gitlab: FakeGitLab;
let clock = 0;
/** Each event a minute after the last, so comments have an order. */
const tick = (): Date => {
  clock += 60_000;
  return new Date(clock);
};

beforeEach(async () => {
  clock = Date.parse('2026-03-01T10:00:00Z');
  gitlab = await startFakeGitLab({ token, now: tick });
});

afterEach(() => gitlab.close());

async function rejection(promise: Promise<unknown>): Promise<WorkbenchError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  if (!WorkbenchError.is(error)) throw error;
  return error;
}

const read = (url: string, secret = token) =>
  readGitLabMergeRequest({ provider: 'gitlab', apiUrl: gitlab.apiUrl, token: secret, url });

const open = () =>
  gitlab.createMergeRequest(project, { source_branch: 'keel/t1', target_branch: 'main', title: 'Add cart' });

describe('readGitLabMergeRequest', () => {
  test('follows an MR: open, pipeline pending then failed, the branch moves, passes, merged', async () => {
    const { iid, web_url: url } = open();
    expect(url).toBe(`${gitlab.webUrl}/acme/web/shop/-/merge_requests/1`);

    let status = await read(url);
    expect(status).toMatchObject({
      provider: 'gitlab',
      url,
      number: iid,
      state: 'open',
      head_sha: gitlab.mergeRequests[0]?.sha,
      checks: [],
      checks_state: 'none',
      comments: [],
    });

    gitlab.setPipeline(project, iid, {
      status: 'running',
      jobs: [
        { name: 'build', status: 'running', stage: 'build' },
        { name: 'test', status: 'created' },
      ],
    });
    status = await read(url);
    expect(status.checks.map((check) => [check.name, check.status])).toEqual([
      ['build', 'running'],
      ['test', 'pending'],
    ]);
    expect(status.checks_state).toBe('pending');
    expect(status.checks[0]?.url).toMatch(/\/acme\/web\/shop\/-\/jobs\/\d+$/);

    gitlab.setPipeline(project, iid, {
      status: 'failed',
      jobs: [
        { name: 'build', status: 'success' },
        { name: 'test', status: 'failed' },
        { name: 'flaky', status: 'failed', allow_failure: true },
      ],
    });
    status = await read(url);
    expect(status.checks_state).toBe('failed');
    expect(status.checks).toEqual([
      expect.objectContaining({ name: 'build', status: 'passed', summary: null }),
      expect.objectContaining({ name: 'test', status: 'failed', summary: 'script_failure' }),
      expect.objectContaining({ name: 'flaky', status: 'skipped' }),
    ]);

    // A new head commit: the old pipeline's result says nothing about it.
    const fixed = 'f'.repeat(40);
    gitlab.setSha(project, iid, fixed);
    status = await read(url);
    expect(status).toMatchObject({ head_sha: fixed, checks: [], checks_state: 'none' });

    gitlab.setPipeline(project, iid, { status: 'success', jobs: [{ name: 'build', status: 'success' }] });
    status = await read(url);
    expect(status.checks_state).toBe('passed');

    gitlab.merge(project, iid);
    expect((await read(url)).state).toBe('merged');

    const paths = gitlab.requests.map((request) => request.path);
    expect(paths).toContain('/api/v4/projects/acme%2Fweb%2Fshop/merge_requests/1');
    expect(paths).toContain('/api/v4/projects/100/merge_requests/1/pipelines');
    expect(paths).toContain('/api/v4/projects/100/merge_requests/1/discussions');
    for (const request of gitlab.requests) expect(request.headers['private-token']).toBe(token);
  });

  test('a pipeline without jobs is one check named after it', async () => {
    const { iid, web_url: url } = open();
    const id = gitlab.setPipeline(project, iid, { status: 'pending', jobs: [] });
    const { checks } = await read(url);
    expect(checks).toEqual([
      {
        name: `pipeline #${id}`,
        status: 'pending',
        url: `${gitlab.webUrl}/${project}/-/pipelines/${id}`,
        summary: null,
      },
    ]);
  });

  test('reads human notes with path and line, leaving out system notes', async () => {
    const { iid, web_url: url } = open();
    gitlab.addNote(project, iid, { body: 'Off by one?', path: 'src/cart.ts', line: 12 });
    gitlab.addNote(project, iid, { body: 'added 1 commit', system: true });
    gitlab.addNote(project, iid, { body: 'Looks good otherwise.', author: 'maria' });

    const { comments } = await read(url);

    expect(comments).toEqual([
      expect.objectContaining({ author: 'reviewer', body: 'Off by one?', path: 'src/cart.ts', line: 12 }),
      expect.objectContaining({ author: 'maria', body: 'Looks good otherwise.', path: null, line: null }),
    ]);
    expect(comments[0]?.url).toBe(`${url}#note_${comments[0]?.id}`);
    expect(comments[0]?.created_at).toMatch(/^2026-03-01T10:\d\d:00\.000Z$/);
  });

  test('a closed MR reads closed', async () => {
    const { iid, web_url: url } = open();
    gitlab.closeMergeRequest(project, iid);
    expect((await read(url)).state).toBe('closed');
  });

  test('a wrong token is MERGE_REQUEST_FOLLOW_FAILED naming gitlab_token, never the token', async () => {
    const { web_url: url } = open();
    const wrong = 'glpat-wrong-token-7';
    const error = await rejection(read(url, wrong));
    expect(error).toMatchObject({
      code: 'MERGE_REQUEST_FOLLOW_FAILED',
      status: 502,
      details: { status: 401, provider: 'gitlab' },
    });
    expect(error.message).toContain('401 Unauthorized');
    expect(error.message).toContain('gitlab_token');
    expect(JSON.stringify({ ...error.toJSON(), stack: error.stack })).not.toContain(wrong);
  });

  test('an unknown MR is a 404 saying it was not found', async () => {
    open();
    const error = await rejection(read(`${gitlab.webUrl}/${project}/-/merge_requests/9`));
    expect(error).toMatchObject({ details: { status: 404, provider: 'gitlab' } });
    expect(error.message).toContain(`not found (merge request ${project}!9)`);
  });

  test('readMergeRequest dispatches to GitLab; URLs parse with nested groups and a relative root', async () => {
    const { web_url: url } = open();
    const status = await readMergeRequest({ provider: 'gitlab', apiUrl: gitlab.apiUrl, token, url });
    expect(status).toMatchObject({ provider: 'gitlab', number: 1 });

    expect(
      parseMergeRequestUrl('https://gitlab.com/a/b/c/-/merge_requests/5', 'https://gitlab.com/api/v4'),
    ).toEqual({ project: 'a/b/c', iid: 5 });
    expect(
      parseMergeRequestUrl(
        'https://h.example/gitlab/a/b/-/merge_requests/5/diffs',
        'https://h.example/gitlab/api/v4',
      ),
    ).toEqual({ project: 'a/b', iid: 5 });
    expect(() =>
      parseMergeRequestUrl('https://gitlab.com/a/b/-/issues/5', 'https://gitlab.com/api/v4'),
    ).toThrow(/not a GitLab merge request URL/);
  });
});

describe('checksState', () => {
  const check = (status: 'pending' | 'running' | 'passed' | 'failed' | 'skipped' | 'cancelled') => ({
    name: status,
    status,
    url: null,
    summary: null,
  });
  test('failed wins, then pending; passed needs at least one check', () => {
    expect(checksState([])).toBe('none');
    expect(checksState([check('passed'), check('skipped')])).toBe('passed');
    expect(checksState([check('passed'), check('running')])).toBe('pending');
    expect(checksState([check('pending'), check('cancelled')])).toBe('failed');
    expect(checksState([check('failed'), check('running')])).toBe('failed');
  });
});
