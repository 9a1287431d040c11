// Stage 05's reviewer and the merge request followed after submit (issue #26), in Debian's Chromium against
// the REAL workbench service in process (the real Keel runner, a scripted model, a real git repository whose
// origin is a GitHub URL pushed to a bare repository on this machine, and the GitHub fake of the workbench's
// tests). The findings are listed and shown under their lines of the diff; one is dismissed, the other
// followed up (back to 04 Coding, the todo badged); after submit a failed check and a comment show in the
// merge-request panel, the check is followed up, and the merged pull request shows as merged.
// Screenshots: test/screenshots/review-*.png.
import { join } from 'node:path';
import { eventually } from '@keel/testkit';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../../workbench/test/fakes/github-api.ts';
import {
  type BrowserWorld,
  call,
  git,
  hasChromium,
  reviewerPrompt,
  shots,
  startBrowserWorld,
} from './harness.ts';

const originUrl = 'https://github.com/acme/greeter.git';
const token = 'ghp_browser_follow';

interface Finding {
  id: string;
  severity: string;
  status: string;
  todo_id: string | null;
}

interface Task {
  id: string;
  state: string;
  branch: string;
  init: { status: string };
  plan: string | null;
  commit_message: string | null;
  review: { status: string; round: number; findings: Finding[] } | null;
  merge_requests:
    | { repository: string; following: boolean; status: { state: string; checks_state: string } | null }[]
    | null;
  todos: { id: string; title: string; status: string; origin: Record<string, unknown> }[];
}

/** The reviewer's answer: a findings list in a json fence, as the workbench's reviewer is asked for. */
function reviewer(findings: unknown[], repeat = false) {
  return {
    when: { lastMessageIncludes: reviewerPrompt },
    text: `Reviewed.\n\n\`\`\`json\n${JSON.stringify(findings)}\n\`\`\``,
    ...(repeat ? { repeat } : {}),
  };
}

describe.skipIf(!hasChromium)('the workbench SPA: review findings, follow-ups and the merge request', () => {
  let world: BrowserWorld;
  let github: FakeGitHub;
  let page: Page;
  let base = '';
  let repository = '';
  let taskId = '';
  const saved = { ...process.env };

  beforeAll(async () => {
    github = await startFakeGitHub({ token });
    world = await startBrowserWorld({
      prefix: 'review',
      bareRemote: true,
      originUrl,
      settings: { github_api_url: github.apiUrl, github_token: token },
      script: (name) => {
        repository = name;
        const writes = (matcher: string, content: string) => ({
          when: { lastMessageIncludes: matcher },
          toolCalls: [{ name: 'write_file', arguments: { path: `${name}/src/greeting.js`, content } }],
        });
        return [
          // First, so that a reviewer prompt (which lists the todos' titles) is never taken for a todo's.
          reviewer([
            {
              severity: 'error',
              repository: name,
              file: 'src/greeting.js',
              line: 1,
              message: 'The greeting has no punctuation.',
            },
            {
              severity: 'warning',
              repository: name,
              file: 'src/greeting.js',
              line: null,
              message: 'Consider a test for the greeting.',
            },
          ]),
          reviewer([], true),
          {
            when: { lastMessageIncludes: 'Write the technical plan' },
            text: '# Plan\n\nGreet.',
            repeat: true,
          },
          {
            when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
            text: '```json\n[{"title": "Greeting", "description": "Create src/greeting.js", "expected_output": "a module"}]\n```',
            repeat: true,
          },
          {
            when: { lastMessageIncludes: 'Write the commit message' },
            text: 'feat: greet\n\nAdds a greeting module.',
            repeat: true,
          },
          writes('Review: The greeting has no punctuation.', 'export const greeting = "hi!";\n'),
          writes('Fix the failing check greeting-test', 'export const greeting = "Hi, there!";\n'),
          writes('Do todo 1 of 1', 'export const greeting = "hi";\n'),
          { when: { lastRole: 'tool' }, text: 'Done.', repeat: true },
        ];
      },
    });
    ({ page, base } = world);
    // Pushes to the "GitHub" origin go to the bare repository (the workbench's git runs with this env).
    Object.assign(process.env, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `url.${world.bare}.pushInsteadOf`,
      GIT_CONFIG_VALUE_0: originUrl,
    });
    const task = await call<Task>(base, 'POST', '/api/tasks', {
      project_id: world.projectId,
      description: 'Greet the user',
    });
    taskId = task.id;
    await eventually(async () => (await getTask()).init.status === 'done', {
      timeoutMs: 60_000,
      what: 'the task initialized',
    });
    await call(base, 'POST', `/api/tasks/${taskId}/confirm-init`);
    await eventually(async () => (await getTask()).plan !== null, { timeoutMs: 60_000, what: 'the plan' });
    await call(base, 'POST', `/api/tasks/${taskId}/lock-plan`);
    await eventually(async () => (await getTask()).state === 'TODO_READY', {
      timeoutMs: 60_000,
      what: 'the todo list',
    });
    await call(base, 'POST', `/api/tasks/${taskId}/start-coding`);
  }, 180_000);

  afterEach(() => {
    if (world.pageErrors.length > 0) console.error(`errors in the page:\n${world.pageErrors.join('\n')}`);
    expect(world.pageErrors).toEqual([]);
  });

  afterAll(async () => {
    process.env = saved;
    await world?.close();
    // Rejects when an answer of the fake broke GitHub's OpenAPI description.
    await github?.close();
  });

  const getTask = () => call<Task>(base, 'GET', `/api/tasks/${taskId}`);
  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const current = () => page.locator('.stepper [aria-current=step]');
  const findings = () => page.getByRole('list', { name: 'Review findings' }).getByTestId('finding');

  /** Runs the remaining todos from the coding page; answers once review's reviewer and commit message are done. */
  async function runToReview(round: number) {
    await page.getByRole('button', { name: /^Run all remaining/ }).click();
    await expect.poll(() => current().textContent(), { timeout: 60_000 }).toContain('05');
    await eventually(
      async () => {
        const task = await getTask();
        return task.review?.round === round && task.review.status === 'done' && task.commit_message !== null;
      },
      { timeoutMs: 60_000, what: `review round ${round} and the commit message` },
    );
    await page.locator('.commit-message').waitFor({ timeout: 30_000 });
  }

  test('the reviewer finds two things: listed, and shown under their lines of the diff', async () => {
    await page.goto(`${base}/tasks/${taskId}`);
    await expect.poll(() => current().textContent(), { timeout: 30_000 }).toContain('04');
    await runToReview(1);
    await page.getByTestId('review-status').filter({ hasText: 'found 2 things; 2 open' }).waitFor();
    expect(await findings().count()).toBe(2);
    const error = findings().filter({ hasText: 'The greeting has no punctuation.' });
    expect(await error.textContent()).toContain(`${repository}/src/greeting.js:1`);
    expect(await error.locator('.badge').first().textContent()).toBe('error');

    // In the diff: the error under line 1 of src/greeting.js (a widget row), the warning at the file's top.
    const file = page.getByRole('region', { name: `Changes in ${repository}` });
    const inline = file.locator('.diff-widget').getByTestId('diff-note');
    await inline.filter({ hasText: 'The greeting has no punctuation.' }).waitFor();
    expect(await inline.count()).toBe(1);
    const widgetRow = file.locator('tr.diff-widget');
    const lineRow = widgetRow.locator('xpath=preceding-sibling::tr[1]');
    expect(await lineRow.textContent()).toContain('export const greeting = "hi";');
    await file
      .locator('.diff-notes-top')
      .getByTestId('diff-note')
      .filter({ hasText: 'Consider a test for the greeting.' })
      .waitFor();
    expect(await file.locator('.diff-counts').first().textContent()).toContain('2 findings');
    // Each note in the diff offers its actions in place.
    expect(
      await inline
        .getByRole('button', { name: 'Follow up in the diff: The greeting has no punctuation.' })
        .count(),
    ).toBe(1);
    await shot('review-findings');
    await page.locator('.review-findings').screenshot({ path: join(shots, 'review-findings-card.png') });
  }, 120_000);

  test('one finding dismissed, the other followed up: back to coding with the todo badged', async () => {
    const warning = findings().filter({ hasText: 'Consider a test for the greeting.' });
    expect(
      await warning.getByRole('button', { name: 'Dismiss: Consider a test for the greeting.' }).count(),
    ).toBe(1);
    // Dismissed where the diff shows it (issue #38, point 4): the same as in the list.
    await page
      .locator('.diff-notes-top')
      .getByRole('button', { name: 'Dismiss in the diff: Consider a test for the greeting.' })
      .click();
    await warning.locator('.badge', { hasText: 'dismissed' }).waitFor();
    // Dismissed: no longer in the diff, and no longer offered.
    await expect.poll(() => page.locator('.diff-notes-top').count()).toBe(0);
    expect(await warning.getByRole('checkbox').count()).toBe(0);

    const follow = page.getByRole('button', { name: /^Follow up \(/ });
    expect(await follow.textContent()).toBe('Follow up (0)');
    expect(await follow.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: 'Follow up: The greeting has no punctuation.' }).check();
    expect(await follow.textContent()).toBe('Follow up (1)');
    await follow.click();

    await expect.poll(() => current().textContent(), { timeout: 30_000 }).toContain('04');
    const added = page
      .locator('.todo-list > li')
      .filter({ hasText: 'Review: The greeting has no punctuation.' });
    await added.waitFor();
    expect(await added.getByTestId('todo-origin').textContent()).toBe('follow-up: review');
    await shot('review-follow-up-coding');
    const task = await getTask();
    expect(task.state).toBe('CODING');
    expect(task.review?.findings.map((finding) => finding.status)).toEqual(['follow_up', 'dismissed']);
    expect(task.todos.at(-1)?.origin).toEqual({ kind: 'review', finding_id: task.review?.findings[0]?.id });
  }, 60_000);

  test('the follow-up runs, the review finds nothing, and the merge request is opened', async () => {
    await runToReview(2);
    await page
      .getByTestId('review-status')
      .filter({ hasText: 'found nothing to change; 1 dismissed finding stays listed below.' })
      .waitFor();
    // The first round's open findings are gone with it (the dismissed one is listed, greyed); nothing is
    // pinned to the diff.
    expect(await page.locator('[data-testid=diff-note]').count()).toBe(0);
    await page.getByRole('button', { name: 'Commit, push and open MR' }).click();
    await page.locator('.submitted').waitFor({ timeout: 60_000 });
    expect(github.pulls).toHaveLength(1);
    const panel = page.getByRole('article', { name: `Merge request of ${repository}` });
    await panel.waitFor();
    expect(await panel.locator('.merge-request-head a').getAttribute('href')).toBe(
      `${github.webUrl}/acme/greeter/pull/1`,
    );
  }, 120_000);

  test('after submit: a failed check and a comment show on Refresh; the check is followed up', async () => {
    const pull = github.pulls[0];
    if (!pull) throw new Error('no pull request');
    github.setChecks('acme', 'greeter', pull.head_sha, [
      {
        name: 'greeting-test',
        status: 'completed',
        conclusion: 'failure',
        title: 'expected a comma',
        text: 'AssertionError: "hi" should be "hi,"',
      },
      { name: 'lint', status: 'completed', conclusion: 'success', title: 'clean' },
    ]);
    github.addReviewComment('acme', 'greeter', 1, {
      body: 'Capitalise it.',
      path: 'src/greeting.js',
      line: 1,
      author: 'octocat',
    });
    await page.getByRole('button', { name: 'Refresh' }).click();
    const panel = page.getByRole('article', { name: `Merge request of ${repository}` });
    const failed = panel.getByTestId('mr-check').filter({ hasText: 'greeting-test' });
    await failed.waitFor({ timeout: 30_000 });
    expect(await failed.textContent()).toContain('expected a comma');
    expect(await failed.locator('.badge').textContent()).toBe('failed');
    // The failing part of its log (what a follow-up gives the agent), folded (issue #38, point 5).
    await failed.getByTestId('check-log').locator('summary').click();
    expect(await failed.getByTestId('check-log').locator('pre').textContent()).toContain(
      'AssertionError: "hi" should be "hi,"',
    );
    expect(await panel.locator('.merge-request-head').textContent()).toMatch(/open.*checks\s*failed/);
    const comment = panel.getByTestId('mr-comment');
    expect(await comment.textContent()).toContain('octocat');
    expect(await comment.textContent()).toContain('src/greeting.js:1');
    expect(await comment.textContent()).toContain('Capitalise it.');
    // A passed check is not offered as a follow-up; the failed one and the comment are.
    expect(
      await panel.getByTestId('mr-check').filter({ hasText: 'lint' }).getByRole('checkbox').count(),
    ).toBe(0);
    expect(await panel.getByTestId('checked-at').textContent()).toMatch(/checked at .* · followed/);
    await shot('review-merge-request-failed');
    // The task is submitted, not "done": its header and the task list say what the merge request is.
    const summary = page.locator('.task-head').getByTestId('mr-summary');
    expect(await summary.textContent()).toBe('MR open · checks failing · 1 comment');
    expect(await summary.getAttribute('class')).toContain('badge-bad');
    expect(await summary.getAttribute('title')).toContain(
      `${repository}: open, checks failed (greeting-test), 1 comment`,
    );
    expect(await page.locator('.task-head .badge', { hasText: /^done$/ }).count()).toBe(0);
    await page.goto(`${base}/tasks`);
    const row = page.getByTestId('task-list').getByRole('row').filter({ hasText: 'Greet the user' });
    expect(await row.getByTestId('mr-summary').textContent()).toBe('MR open · checks failing · 1 comment');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot('review-task-list-mr-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/tasks/${taskId}`);

    await panel.getByRole('checkbox', { name: 'Follow up the check greeting-test' }).check();
    const follow = page.getByRole('button', { name: 'Follow up (1)' });
    await follow.click();
    await expect.poll(() => current().textContent(), { timeout: 30_000 }).toContain('04');
    const added = page.locator('.todo-list > li').filter({ hasText: 'Fix the failing check greeting-test' });
    await added.waitFor();
    expect(await added.getByTestId('todo-origin').textContent()).toBe('follow-up: check greeting-test');
  }, 60_000);

  test('the loop ends: the fix is pushed to the same pull request, which is merged', async () => {
    await runToReview(3);
    await page.getByRole('button', { name: 'Commit, push and open MR' }).click();
    await expect.poll(async () => (await getTask()).state, { timeout: 60_000 }).toBe('DONE');
    expect(github.pulls).toHaveLength(1);
    // The fix is on the same branch: the pull request's new head, whose checks pass.
    const { branch } = await getTask();
    expect(git(world.bare, 'show', `${branch}:src/greeting.js`)).toBe(
      'export const greeting = "Hi, there!";',
    );
    await page.locator('.diff-view').getByText('export const greeting = "Hi, there!";').waitFor();
    const head = git(world.bare, 'rev-parse', branch);
    github.setHead('acme', 'greeter', 1, head);
    github.setChecks('acme', 'greeter', head, [
      { name: 'greeting-test', status: 'completed', conclusion: 'success' },
      { name: 'lint', status: 'completed', conclusion: 'success' },
    ]);
    github.merge('acme', 'greeter', 1);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const panel = page.getByRole('article', { name: `Merge request of ${repository}` });
    await panel.locator('.merge-request-head .badge', { hasText: 'merged' }).waitFor({ timeout: 30_000 });
    // Merged: no longer followed, and the page stops asking.
    await expect.poll(() => panel.getByTestId('checked-at').textContent()).not.toContain('followed');
    const task = await getTask();
    expect(task.merge_requests?.[0]).toMatchObject({
      following: false,
      status: { state: 'merged', head_sha: head, checks_state: 'passed' },
    });
    // Merged: nothing of it is offered as a follow-up any more.
    expect(await panel.getByRole('checkbox').count()).toBe(0);
    await shot('review-merge-request-merged');
    const summary = page.locator('.task-head').getByTestId('mr-summary');
    expect(await summary.textContent()).toBe('MR merged');
    expect(await summary.getAttribute('class')).toContain('badge-ok');
    expect(await page.content()).not.toContain(token);
  }, 120_000);

  test('settings: the GitLab token and API URL; the project: its reviewer runner', async () => {
    await page.goto(`${base}/settings`);
    const gitlab = page.getByRole('group', { name: 'GitLab' });
    expect(await gitlab.getByTestId('gitlab-token-state').textContent()).toBe('not set');
    expect(await gitlab.getByLabel('API URL').inputValue()).toBe('https://gitlab.com/api/v4');
    await gitlab.getByLabel('API URL').fill('https://gitlab.example.com/api/v4');
    await gitlab.getByLabel(/^Token/).fill('glpat-browser');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await expect.poll(() => gitlab.getByTestId('gitlab-token-state').textContent()).toBe('set');
    const settings = await call<Record<string, unknown>>(base, 'GET', '/api/settings');
    expect(settings).toMatchObject({
      gitlab_api_url: 'https://gitlab.example.com/api/v4',
      gitlab_token_set: true,
      github_token_set: true,
    });
    expect(JSON.stringify(settings)).not.toContain('glpat-browser');
    await shot('review-settings-gitlab');

    await page.goto(`${base}/projects/${world.projectId}`);
    const form = page.getByRole('form', { name: 'Project settings' });
    const select = form.getByLabel('Reviewer runner');
    expect(await select.inputValue()).toBe('');
    await select.selectOption('keel');
    await form.getByRole('button', { name: 'Save project settings' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const project = await call<{ review_runner: string | null }>(
      base,
      'GET',
      `/api/projects/${world.projectId}`,
    );
    expect(project.review_runner).toBe('keel');
    await shot('review-project-settings');
  }, 60_000);
});
