// A failed check comes with the failing part of its log, bounded: GitHub a check run's annotations and
// output, GitLab the end of a job's trace, cleaned. A log that cannot be read is null, not a failed read.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readGitHubPullRequest, readGitLabMergeRequest } from '../../src/merge-requests/index.ts';
import type { FakeGitHub } from '../fakes/github-api.ts';
import { startFakeGitHub } from '../fakes/github-api.ts';
import { checkRunId } from '../fakes/github-objects.ts';
import type { FakeGitLab } from '../fakes/gitlab-api.ts';
import { startFakeGitLab } from '../fakes/gitlab-api.ts';

const esc = '\u001b';
const maxLog = 8_000;

describe('GitHub: a failed check run has its annotations and output as its log', () => {
  const token = 'ghp_logs_secret';
  let github: FakeGitHub;
  let url = '';
  let sha = '';

  beforeEach(async () => {
    github = await startFakeGitHub({ token });
    const pull = github.openPull('acme', 'shop', { head: 'keel/t1', base: 'main', title: 'Add cart' });
    url = `${github.webUrl}/acme/shop/pull/${pull.number}`;
    sha = pull.head_sha;
  });

  // close() fails the test when any answer broke GitHub's OpenAPI description.
  afterEach(() => github.close());

  const read = () => readGitHubPullRequest({ provider: 'github', apiUrl: github.apiUrl, token, url });
  const annotationReads = () => github.requests.filter((request) => request.path.endsWith('/annotations'));

  test('annotations first, then the output; a passed check has no log and no request for one', async () => {
    github.setChecks('acme', 'shop', sha, [
      {
        name: 'test',
        status: 'completed',
        conclusion: 'failure',
        title: '1 test failed',
        summary: 'cart.test.ts: 1 failed, 11 passed',
        text: 'FAIL src/cart.test.ts > adds an item\nAssertionError: expected 3 to be 2',
        annotations: [
          {
            path: 'src/cart.ts',
            start_line: 12,
            annotation_level: 'failure',
            title: 'adds an item',
            message: 'expected 3 to be 2',
          },
          { path: 'src/util.ts', start_line: 3, annotation_level: 'warning', message: 'unused variable' },
        ],
      },
      {
        name: 'lint',
        status: 'completed',
        conclusion: 'success',
        text: 'all clean',
        annotations: [{ path: 'src/a.ts', start_line: 1, annotation_level: 'notice', message: 'fine' }],
      },
    ]);

    const status = await read();

    expect(status.checks_state).toBe('failed');
    const [failed, passed] = status.checks;
    expect(failed).toMatchObject({ name: 'test', status: 'failed', summary: '1 test failed' });
    expect(failed?.log).toBe(
      [
        'src/cart.ts:12: failure: adds an item: expected 3 to be 2',
        'src/util.ts:3: warning: unused variable',
        '',
        '1 test failed',
        '',
        'cart.test.ts: 1 failed, 11 passed',
        '',
        'FAIL src/cart.test.ts > adds an item\nAssertionError: expected 3 to be 2',
      ].join('\n'),
    );
    expect(passed).toMatchObject({ name: 'lint', status: 'passed' });
    expect(passed).not.toHaveProperty('log');
    expect(annotationReads().map((request) => request.path)).toEqual([
      `/api/v3/repos/acme/shop/check-runs/${checkRunId('acme', 'shop', sha, 'test')}/annotations`,
    ]);
    expect(annotationReads()[0]?.query.get('per_page')).toBe('50');
    expect(annotationReads()[0]?.headers.authorization).toBe(`Bearer ${token}`);
  });

  test('a long output is cut at the end, keeping the annotations; logs of at most 10 failed runs are read', async () => {
    const failing = (index: number) => ({
      name: `shard-${index}`,
      status: 'completed' as const,
      conclusion: 'failure' as const,
      text: `${'x'.repeat(99)}\n`.repeat(200),
      annotations: [{ path: 'src/cart.ts', start_line: index, message: `shard ${index} failed` }],
    });
    github.setChecks(
      'acme',
      'shop',
      sha,
      Array.from({ length: 12 }, (_, index) => failing(index + 1)),
    );

    const { checks } = await read();

    expect(annotationReads()).toHaveLength(10);
    const first = checks[0]?.log ?? '';
    expect(first.length).toBeLessThanOrEqual(maxLog);
    expect(first.length).toBeGreaterThan(maxLog - 200);
    expect(first.startsWith('src/cart.ts:1: failure: shard 1 failed\n\n')).toBe(true);
    expect(first.endsWith('\n…')).toBe(true);
    expect(checks.slice(0, 10).every((check) => check.log)).toBe(true);
    expect(checks.slice(10).map((check) => check.log)).toEqual([null, null]);
  });

  test('annotations answering 500: the log is the output alone, and the rest of the read is fine', async () => {
    github.setChecks('acme', 'shop', sha, [
      {
        name: 'test',
        status: 'completed',
        conclusion: 'failure',
        title: '1 test failed',
        text: 'FAIL src/cart.test.ts',
        annotations: [{ path: 'src/cart.ts', start_line: 12, message: 'expected 3 to be 2' }],
      },
    ]);
    github.addIssueComment('acme', 'shop', 1, { body: 'CI is red.' });
    github.intercept = (request) =>
      request.path.endsWith('/annotations')
        ? {
            status: 500,
            body: { message: 'Server Error', documentation_url: 'https://docs.github.com/rest' },
          }
        : null;

    const status = await read();

    expect(annotationReads()).toHaveLength(1);
    expect(status).toMatchObject({
      state: 'open',
      checks_state: 'failed',
      comments: [{ body: 'CI is red.' }],
    });
    expect(status.checks).toEqual([
      expect.objectContaining({
        name: 'test',
        status: 'failed',
        summary: '1 test failed',
        log: '1 test failed\n\nFAIL src/cart.test.ts',
      }),
    ]);
  });
});

describe('GitLab: a failed job has the cleaned end of its trace as its log', () => {
  const token = 'glpat-logs-secret';
  const project = 'acme/web/shop';
  let gitlab: FakeGitLab;
  let iid = 0;
  let url = '';

  beforeEach(async () => {
    gitlab = await startFakeGitLab({ token });
    ({ iid, web_url: url } = gitlab.createMergeRequest(project, {
      source_branch: 'keel/t1',
      target_branch: 'main',
      title: 'Add cart',
    }));
  });

  afterEach(() => gitlab.close());

  const read = () => readGitLabMergeRequest({ provider: 'gitlab', apiUrl: gitlab.apiUrl, token, url });
  const traceReads = () => gitlab.requests.filter((request) => request.path.endsWith('/trace'));

  // A trace as a GitLab runner writes it: collapsible sections, colours, progress redrawn with \r.
  const section = (name: string, header: string, body: string) =>
    `${esc}[0Ksection_start:1767261600:${name}[collapsed=true]\r${esc}[0K${esc}[0K${esc}[36;1m${header}${esc}[0;m\n` +
    body +
    `${esc}[0Ksection_end:1767261660:${name}\r${esc}[0K`;
  const noise = Array.from({ length: 600 }, (_, n) => `${esc}[32m ok ${n} cart case ${n}${esc}[0m\n`).join(
    '',
  );
  const trace =
    `${esc}[0KRunning with gitlab-runner 17.0.0${esc}[0;m\n` +
    section('prepare_script', 'Preparing environment', 'Running on runner-1\n') +
    section(
      'step_script',
      'Executing "step_script" stage of the job script',
      `$ npm ci\nprogress 10%\rprogress 55%\rprogress 100%\r\n${noise}` +
        `${esc}[31;1m FAIL src/cart.test.ts > adds an item${esc}[0m\r\n` +
        'AssertionError: expected 3 to be 2\n',
    ) +
    `${esc}[31;1mERROR: Job failed: exit code 1\n${esc}[0;m\n`;

  test('ANSI codes and section markers gone, the end kept, at most 8,000 characters; only failed jobs read', async () => {
    gitlab.setPipeline(project, iid, {
      status: 'failed',
      jobs: [
        { name: 'build', status: 'success', trace: 'built\n' },
        { name: 'test', status: 'failed', trace },
        { name: 'flaky', status: 'failed', allow_failure: true, trace: 'flaky\n' },
      ],
    });
    expect(trace.length).toBeGreaterThan(maxLog * 2);

    const status = await read();

    const [build, failed, flaky] = status.checks;
    expect(failed).toMatchObject({ name: 'test', status: 'failed', summary: 'script_failure' });
    const log = failed?.log ?? '';
    expect(log.length).toBeLessThanOrEqual(maxLog);
    expect(log.length).toBeGreaterThan(maxLog - 200);
    expect(log).not.toContain(esc);
    expect(log).not.toContain('\r');
    expect(log).not.toMatch(/section_(start|end)/);
    expect(log.startsWith('…\n')).toBe(true);
    expect(log).toMatch(/\n ok \d+ cart case \d+\n/);
    expect(
      log.endsWith(
        ' ok 599 cart case 599\n FAIL src/cart.test.ts > adds an item\nAssertionError: expected 3 to be 2\n' +
          'ERROR: Job failed: exit code 1',
      ),
    ).toBe(true);
    expect(build).not.toHaveProperty('log');
    expect(flaky).toMatchObject({ status: 'skipped' });
    expect(flaky).not.toHaveProperty('log');
    expect(traceReads().map((request) => request.path)).toEqual([
      `/api/v4/projects/100/jobs/${gitlab.mergeRequests[0]?.pipelines[0]?.jobs[1]?.id}/trace`,
    ]);
    expect(traceReads()[0]?.headers['private-token']).toBe(token);
  });

  test('a short trace reads whole, its section headers and redrawn progress as a terminal shows them', async () => {
    gitlab.setPipeline(project, iid, {
      status: 'failed',
      jobs: [
        {
          name: 'test',
          status: 'failed',
          trace: section(
            'step_script',
            'Executing "step_script"',
            '$ npm ci\nprogress 10%\rprogress 100%\r\n',
          ),
        },
      ],
    });

    const { checks } = await read();

    expect(checks[0]?.log).toBe('Executing "step_script"\n$ npm ci\nprogress 100%');
  });

  test('a trace answering 500: that log is null and the rest of the read is fine', async () => {
    gitlab.setPipeline(project, iid, {
      status: 'failed',
      jobs: [
        { name: 'build', status: 'success' },
        { name: 'test', status: 'failed', trace },
      ],
    });
    gitlab.addNote(project, iid, { body: 'CI is red.' });
    gitlab.intercept = (request) =>
      request.path.endsWith('/trace')
        ? { status: 500, body: { message: '500 Internal Server Error' } }
        : null;

    const status = await read();

    expect(traceReads()).toHaveLength(1);
    expect(status).toMatchObject({
      state: 'open',
      checks_state: 'failed',
      comments: [{ body: 'CI is red.' }],
    });
    expect(status.checks).toEqual([
      expect.objectContaining({ name: 'build', status: 'passed' }),
      expect.objectContaining({ name: 'test', status: 'failed', summary: 'script_failure', log: null }),
    ]);
  });

  test('a failed job without a trace has a null log', async () => {
    gitlab.setPipeline(project, iid, { status: 'failed', jobs: [{ name: 'test', status: 'failed' }] });
    const { checks } = await read();
    expect(checks[0]).toMatchObject({ name: 'test', status: 'failed', log: null });
  });
});
