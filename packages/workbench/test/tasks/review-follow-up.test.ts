// Issue #26: stage 05 opens with a reviewer whose findings can become follow-up todos on the same branch,
// and a submitted merge request is followed to its end (GitHub: a fake whose every answer is validated
// against GitHub's OpenAPI description; GitLab: a fake of its merge-request and pipeline endpoints).
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedReply } from '@keel/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeGitHub } from '../fakes/github-api.ts';
import { startFakeGitLab } from '../fakes/gitlab-api.ts';
import {
  type Api,
  type Body,
  connect,
  eventually,
  planningScript,
  repoWithRemote,
  reviewerReply,
  startWorkbench,
  taskInCoding,
  tempDir,
} from '../harness.ts';

const githubOrigin = 'https://github.com/acme/shop.git';

/** The todo whose prompt holds `title` writes `content` to greeting.txt of `repository`. */
function todoWrites(title: string, repository: string, content: string): ScriptedReply[] {
  const path = `${repository}/greeting.txt`;
  return [
    {
      when: { lastMessageIncludes: title },
      toolCalls: [{ name: 'write_file', arguments: { path, content } }],
    },
  ];
}

const commonReplies: ScriptedReply[] = [
  { when: { lastRole: 'tool' }, text: 'Done.', repeat: true },
  { when: { lastMessageIncludes: 'Write the commit message' }, text: 'Greet politely', repeat: true },
];

async function view(api: Api, taskId: string): Promise<Body> {
  return (await api('GET', `/api/tasks/${taskId}`)).body;
}

/** Runs every remaining todo; answers the task once review's reviewer and commit message are both done. */
async function codeAndReview(api: Api, taskId: string, round: number): Promise<Body> {
  expect((await api('POST', `/api/tasks/${taskId}/run-all`)).status).toBe(202);
  return eventually(async () => {
    const task = await view(api, taskId);
    return (
      task.state === 'REVIEWING' &&
      task.review?.round === round &&
      task.review.status !== 'running' &&
      task.commit_message &&
      task
    );
  }, `review round ${round}`);
}

describe('review and follow-up', () => {
  const root = tempDir('follow');
  const saved = { ...process.env };
  beforeAll(() => {
    // Pushes to the "GitHub" remote URL go to its bare repository (for the git commands of this process).
    Object.assign(process.env, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `url.${join(root, 'shop.git')}.pushInsteadOf`,
      GIT_CONFIG_VALUE_0: githubOrigin,
    });
  });
  afterAll(() => {
    process.env = saved;
  });

  test('a finding becomes a todo on the same branch; the pull request is followed through a failed check, a follow-up push and a merge', {
    timeout: 120_000,
  }, async () => {
    const repo = repoWithRemote(root, 'shop', { 'greeting.txt': 'hi\n' }, { originUrl: githubOrigin });
    await using github = await startFakeGitHub({ token: 'ghp_follow' });
    await using wb = await startWorkbench(
      [
        reviewerReply([
          {
            severity: 'error',
            repository: 'shop',
            file: 'greeting.txt',
            line: 1,
            message: 'The greeting has no punctuation.',
          },
          { severity: 'info', repository: 'shop', file: 'greeting.txt', line: null, message: 'Nice file.' },
        ]),
        reviewerReply([]),
        reviewerReply([]),
        ...planningScript(1, ['greet']),
        ...todoWrites('Do todo 1 of 1', 'shop', 'hello\n'),
        ...todoWrites('Review: The greeting has no punctuation.', 'shop', 'hello!\n'),
        ...todoWrites('Fix the failing check greeting-test in shop', 'shop', 'hello, world!\n'),
        ...todoWrites("Address octocat's comment", 'shop', 'Hello, world!\n'),
        ...commonReplies,
      ],
      { workbench: { mergeRequestPollMs: 100 } },
    );
    const { api } = wb;
    await api('PUT', '/api/settings', { github_api_url: github.apiUrl, github_token: 'ghp_follow' });
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom', provider: 'github' } as never]);

    // Review: the reviewer (read-only, its own session) finds two things; then the commit message is written.
    const reviewed = await codeAndReview(api, task.id, 1);
    expect(reviewed.review).toMatchObject({ status: 'done', round: 1, error: null });
    const [problem, praise] = reviewed.review.findings;
    expect(problem).toMatchObject({
      severity: 'error',
      repository: 'shop',
      file: 'greeting.txt',
      line: 1,
      status: 'open',
    });
    const reviewer = (await api('GET', `/api/sessions/${reviewed.review.session_id}/status`)).body;
    expect(reviewer).toMatchObject({ kind: 'reviewer', status: 'succeeded' });
    const prompt = JSON.stringify(
      wb.model.chatRequests.find((request) =>
        JSON.stringify(request.messages).includes('Review this change'),
      ),
    );
    expect(prompt).toContain('+hello');
    expect(prompt).toContain('1. [done] greet');

    // One finding dismissed, the other becomes a follow-up todo: back to CODING on the same branch.
    expect((await api('POST', `/api/tasks/${task.id}/findings/${praise.id}/dismiss`)).body.status).toBe(
      'dismissed',
    );
    const refused = await api('POST', `/api/tasks/${task.id}/follow-up`, { findings: [praise.id] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('FINDING_NOT_OPEN');
    const followed = await api('POST', `/api/tasks/${task.id}/follow-up`, { findings: [problem.id] });
    expect(followed.status, JSON.stringify(followed.body)).toBe(200);
    expect(followed.body.task.state).toBe('CODING');
    expect(followed.body.task.commit_message).toBeNull();
    const added = followed.body.todos[1];
    expect(added).toMatchObject({
      position: 2,
      status: 'pending',
      title: 'Review: The greeting has no punctuation.',
      origin: { kind: 'review', finding_id: problem.id },
    });
    expect(followed.body.task.review.findings[0]).toMatchObject({ status: 'follow_up', todo_id: added.id });

    // The follow-up todo runs; review again (nothing found), then submit: one pull request.
    const second = await codeAndReview(api, task.id, 2);
    // Nothing new; the dismissed finding stays listed as dismissed (issue #38, point 4).
    expect(second.review.findings.map((finding: Body) => [finding.message, finding.status])).toEqual([
      [praise.message, 'dismissed'],
    ]);
    const submitted = await api('POST', `/api/tasks/${task.id}/submit-mr`);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.state).toBe('DONE');
    const pull = github.pulls[0];
    expect(github.pulls).toHaveLength(1);
    expect(submitted.body.merge_requests).toMatchObject([
      { repository: 'shop', provider: 'github', url: `${github.webUrl}/acme/shop/pull/1`, following: true },
    ]);
    expect(repo.git('show', `${task.branch}:greeting.txt`)).toBe('hello!');

    // The pipeline fails and a reviewer comments: the follower reads both by itself.
    if (!pull) throw new Error('no pull request');
    github.setChecks('acme', 'shop', pull.head_sha, [
      {
        name: 'greeting-test',
        status: 'completed',
        conclusion: 'failure',
        title: 'expected a comma',
        text: 'greeting.test.sh: got "hello!", want "hello, world!"',
        annotations: [{ path: 'greeting.txt', start_line: 1, message: 'no comma after the greeting' }],
      },
    ]);
    const commentId = github.addReviewComment('acme', 'shop', 1, {
      body: 'Capitalise it.',
      path: 'greeting.txt',
      line: 1,
      author: 'octocat',
    });
    const failing = await eventually(async () => {
      const [mr] = (await api('GET', `/api/tasks/${task.id}/merge-requests`)).body.merge_requests;
      return mr?.status?.checks_state === 'failed' && mr.status.comments.length > 0 && mr;
    }, 'the failed check and the comment, read by the follower');
    const log =
      'greeting.txt:1: failure: no comma after the greeting\n\nexpected a comma\n\n' +
      'greeting.test.sh: got "hello!", want "hello, world!"';
    expect(failing.status.checks[0]).toMatchObject({
      name: 'greeting-test',
      status: 'failed',
      summary: 'expected a comma',
      log,
    });
    expect(failing.status.comments[0]).toMatchObject({
      author: 'octocat',
      body: 'Capitalise it.',
      path: 'greeting.txt',
      line: 1,
    });
    expect(String(commentId)).toBe(failing.status.comments[0].id.replace(/^review:/, ''));

    // Both become todos; their commit is pushed to the same branch, updating the same pull request.
    const fromMr = await api('POST', `/api/tasks/${task.id}/follow-up`, {
      merge_request: [
        { repository: 'shop', check: 'greeting-test' },
        { repository: 'shop', comment_id: failing.status.comments[0].id },
      ],
    });
    expect(fromMr.status, JSON.stringify(fromMr.body)).toBe(200);
    expect(fromMr.body.todos.slice(2).map((todo: Body) => todo.origin)).toEqual([
      { kind: 'merge_request', repository: 'shop', check: 'greeting-test' },
      { kind: 'merge_request', repository: 'shop', comment_id: failing.status.comments[0].id },
    ]);
    // The check's todo carries its log, after the summary, for the agent that fixes it.
    expect(fromMr.body.todos[2].description).toContain(
      `What it reported:\nexpected a comma\n\nThe failing part of its log:\n\`\`\`\n${log}\n\`\`\`\n`,
    );
    await codeAndReview(api, task.id, 3);
    const fixing = wb.model.chatRequests.find((request) =>
      JSON.stringify(request.messages).includes('Fix the failing check greeting-test'),
    );
    expect(JSON.stringify(fixing?.messages)).toContain('no comma after the greeting');
    const again = await api('POST', `/api/tasks/${task.id}/submit-mr`);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(github.pulls).toHaveLength(1);
    expect(
      github.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/pulls')),
    ).toHaveLength(1);
    expect(repo.git('show', `${task.branch}:greeting.txt`)).toBe('Hello, world!');
    expect(repo.git('rev-list', '--count', `main..${task.branch}`)).toBe('2');

    // The new head's checks pass and the pull request is merged: followed to its end.
    const head = repo.git('rev-parse', task.branch);
    github.setHead('acme', 'shop', 1, head);
    github.setChecks('acme', 'shop', head, [
      { name: 'greeting-test', status: 'completed', conclusion: 'success' },
    ]);
    github.merge('acme', 'shop', 1);
    const refreshed = await api('POST', `/api/tasks/${task.id}/merge-requests/refresh`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.merge_requests[0]).toMatchObject({
      following: false,
      error: null,
      status: { state: 'merged', head_sha: head, checks_state: 'passed' },
    });
    // The token went only to the fake, and never into what the API answers.
    expect(JSON.stringify(await view(api, task.id))).not.toContain('ghp_follow');
  });

  test('GitLab: the merge request opened by push options is followed through a failed pipeline, a follow-up push and a merge', {
    timeout: 120_000,
  }, async () => {
    await using gitlab = await startFakeGitLab({ token: 'glpat-follow' });
    const opened = gitlab.createMergeRequest('acme/web', {
      source_branch: 'keel/x',
      target_branch: 'main',
      title: 'Greet',
    });
    const repo = repoWithRemote(root, 'web', { 'greeting.txt': 'hi\n' }, { pushOptions: true });
    // GitLab answers a push with the merge request's link.
    const hook = join(repo.bare, 'hooks', 'post-receive');
    writeFileSync(
      hook,
      `#!/bin/sh\necho "View merge request for keel/x:" >&2\necho "  ${opened.web_url}" >&2\n`,
    );
    chmodSync(hook, 0o755);
    await using wb = await startWorkbench([
      ...planningScript(1, ['greet']),
      ...todoWrites('Do todo 1 of 1', 'web', 'hello\n'),
      ...todoWrites('Fix the failing check test in web', 'web', 'hello!\n'),
      reviewerReply([]),
      reviewerReply([]),
      ...commonReplies,
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom', provider: 'gitlab' } as never]);
    await codeAndReview(api, task.id, 1);
    const submitted = await api('POST', `/api/tasks/${task.id}/submit-mr`);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.merge_requests[0]).toMatchObject({ provider: 'gitlab', url: opened.web_url });

    // Without a token the follower says what to set; with one it reads the failed pipeline.
    const untokened = await api('POST', `/api/tasks/${task.id}/merge-requests/refresh`);
    expect(untokened.body.merge_requests[0].error).toMatch(/gitlab_token/);
    await api('PUT', '/api/settings', { gitlab_api_url: gitlab.apiUrl, gitlab_token: 'glpat-follow' });
    gitlab.setSha('acme/web', opened.iid, repo.git('rev-parse', task.branch));
    gitlab.setPipeline('acme/web', opened.iid, {
      status: 'failed',
      jobs: [
        {
          name: 'test',
          status: 'failed',
          trace:
            '\u001b[0;m$ ./test.sh\n\u001b[31;1mgreeting.txt: want "hello!"\u001b[0;m\nERROR: Job failed\n',
        },
        { name: 'lint', status: 'success' },
      ],
    });
    // Followed live over the WebSocket too: the task's channel carries every change of it.
    const client = await connect(wb.base);
    client.send({ type: 'subscribe', channel: 'task:task_missing' });
    expect((await client.next((message) => message.type === 'error')).error).toMatchObject({
      code: 'TASK_NOT_FOUND',
    });
    client.send({ type: 'subscribe', channel: `task:${task.id}` });
    const first = await client.next((message) => message.type === 'task');
    expect(first.task).toMatchObject({ id: task.id, state: 'DONE' });
    const failed = await api('POST', `/api/tasks/${task.id}/merge-requests/refresh`);
    expect(failed.body.merge_requests[0].status).toMatchObject({ state: 'open', checks_state: 'failed' });
    const pushed = await client.next(
      (message) =>
        message.type === 'task' &&
        (message.task as Body).merge_requests?.[0]?.status?.checks_state === 'failed',
    );
    expect(pushed.channel).toBe(`task:${task.id}`);
    client.socket.close();

    // The failed job becomes a todo; its commit goes to the same branch.
    const follow = await api('POST', `/api/tasks/${task.id}/follow-up`, {
      merge_request: [{ repository: 'web', check: 'test' }],
    });
    expect(follow.status, JSON.stringify(follow.body)).toBe(200);
    expect(follow.body.todos.at(-1).description).toContain(
      'The failing part of its log:\n```\n$ ./test.sh\ngreeting.txt: want "hello!"\nERROR: Job failed\n```',
    );
    await codeAndReview(api, task.id, 2);
    expect((await api('POST', `/api/tasks/${task.id}/submit-mr`)).status).toBe(200);
    expect(readFileSync(join(task.workspaces[0].dir, 'greeting.txt'), 'utf8')).toBe('hello!\n');
    expect(repo.git('rev-list', '--count', `main..${task.branch}`)).toBe('2');

    const head = repo.git('rev-parse', task.branch);
    gitlab.setSha('acme/web', opened.iid, head);
    gitlab.setPipeline('acme/web', opened.iid, {
      status: 'success',
      jobs: [{ name: 'test', status: 'success' }],
    });
    gitlab.merge('acme/web', opened.iid);
    const merged = await api('POST', `/api/tasks/${task.id}/merge-requests/refresh`);
    expect(merged.body.merge_requests[0]).toMatchObject({
      following: false,
      status: { state: 'merged', head_sha: head, checks_state: 'passed' },
    });
    const requests = gitlab.requests.filter((request) => request.path.includes('/merge_requests/'));
    expect(requests.length).toBeGreaterThan(0);
  });
});
