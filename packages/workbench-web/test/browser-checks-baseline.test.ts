// Issue #37, item 4 in the SPA (Debian's Chromium against the real workbench in process, the real Keel
// runner, a scripted model): stage 04 shows the checks' baseline beside the todos; a check that cannot run
// is shown as an environment problem (what is missing, what to do) on the todo, the baseline and the task,
// with no turn spent; "Run baseline again" after the check is fixed; a check failing before any change is
// shown as such and does not fail the todo. Screenshots in test/screenshots/, named `checks-baseline-*`.
import { basename, join } from 'node:path';
import { eventually, type MockModel } from '@keel/testkit';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type BrowserWorld, call, hasChromium, shots, startBrowserWorld } from './harness.ts';

interface Task {
  id: string;
  state: string;
  plan: string | null;
  init: { status: string };
  todos: { id: string; status: string; error_code: string | null }[];
  baseline: { status: string; results: { name: string; outcome: string }[] } | null;
}

describe.skipIf(!hasChromium)('the workbench SPA: the checks baseline and environment errors', () => {
  let world: BrowserWorld;
  let page: Page;
  let model: MockModel;
  let base = '';

  beforeAll(async () => {
    world = await startBrowserWorld({
      prefix: 'baseline',
      files: {
        // A fresh clone whose test runner was never installed, and a test that already fails.
        'package.json': JSON.stringify({ name: 'web', scripts: { test: 'keel-no-such-runner run' } }),
        'known.js': "console.error('1 failing: the date parser (known bug)');\nprocess.exit(1);\n",
        'check.js': "console.log('ok');\n",
        // Passes until greeting.txt exists, then only when it says hello (a repair's test).
        'greet-check.js':
          "const fs = require('node:fs');\nif (fs.existsSync('greeting.txt') && !fs.readFileSync('greeting.txt', 'utf8').includes('hello')) {\n  console.error('greeting.txt does not say hello');\n  process.exit(1);\n}\nconsole.log('greeting ok');\n",
      },
    });
    ({ page, model, base } = world);
  }, 120_000);

  afterEach(() => {
    if (world.pageErrors.length > 0) console.error(`errors in the page:\n${world.pageErrors.join('\n')}`);
    expect(world.pageErrors).toEqual([]);
  });

  afterAll(async () => {
    await world?.close();
  });

  const getTask = (id: string) => call<Task>(base, 'GET', `/api/tasks/${id}`);

  /** A task taken through the API to CODING with these todos. */
  async function codingTask(titles: string[]): Promise<Task> {
    const task = await call<Task>(base, 'POST', '/api/tasks', {
      project_id: world.projectId,
      description: 'Greet',
    });
    await call(base, 'POST', `/api/tasks/${task.id}/init`).catch(() => undefined);
    await eventually(async () => (await getTask(task.id)).init.status === 'done', {
      timeoutMs: 30_000,
      what: 'the task initialization',
    });
    model.push({ when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nGreet.' });
    await call(base, 'POST', `/api/tasks/${task.id}/confirm-init`);
    await call(base, 'POST', `/api/tasks/${task.id}/plan`).catch(() => undefined);
    await eventually(async () => (await getTask(task.id)).plan !== null, {
      timeoutMs: 30_000,
      what: 'the plan',
    });
    const list = titles.map((title) => ({ title, description: `Do ${title}`, expected_output: 'done' }));
    model.push({
      when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
      text: `\`\`\`json\n${JSON.stringify(list)}\n\`\`\``,
    });
    // Locking waits for the plan session to be free (409 SESSION_BUSY just after the draft).
    await eventually(
      async () => {
        await call(base, 'POST', `/api/tasks/${task.id}/lock-plan`).catch(() => undefined);
        return (await getTask(task.id)).state === 'TODO_READY';
      },
      { timeoutMs: 30_000, what: 'the todo list' },
    );
    return call<Task>(base, 'POST', `/api/tasks/${task.id}/start-coding`);
  }

  test('an environment problem in the baseline, fixed and taken again; a check failing before any change does not fail the todo', async () => {
    const repository = basename(world.repo.path);
    await call(base, 'PUT', `/api/projects/${world.projectId}`, {
      checks: {
        [repository]: [
          { name: 'test', command: 'npm test' },
          { name: 'known', command: 'node known.js' },
        ],
      },
    });
    const task = await codingTask(['Greet', 'Wave']);
    await page.goto(`${base}/tasks/${task.id}`);
    await expect.poll(() => page.locator('#stage-title').textContent()).toBe('04 · Coding');
    const panel = page.getByRole('region', { name: 'Checks baseline' });
    await expect
      .poll(() => panel.getByTestId('baseline-summary').textContent())
      .toContain('before the first todo');

    // The first todo: the baseline finds the missing runner, and the todo fails before its turn.
    const row = (position: number) => page.locator('.todo-list li').nth(position - 1);
    await row(1).getByRole('button', { name: 'Execute' }).click();
    await row(1).locator('.badge', { hasText: 'failed' }).waitFor({ timeout: 60_000 });
    await expect
      .poll(() => row(1).locator('.error-text').textContent())
      .toContain('command `keel-no-such-runner` not found');
    await expect
      .poll(() => panel.getByTestId('baseline-summary').textContent(), { timeout: 15_000 })
      .toContain('1 check cannot run in the workspace');
    await expect
      .poll(() => panel.getByTestId('check-reason').first().textContent())
      .toContain("command `keel-no-such-runner` not found. Not the change's fault");
    await expect.poll(() => page.locator('.todo-checks [data-outcome=failed]').count()).toBe(1);
    // On the task too, in its header.
    const taskNote = page.locator('header .error-note[role=alert]');
    await expect.poll(() => taskNote.textContent()).toMatch(/^Environment problem: .*run the baseline again/);
    expect(
      model.chatRequests.some((request) => JSON.stringify(request.messages).includes('Do todo 1 of 2')),
    ).toBe(false);
    await page.screenshot({ path: join(shots, 'checks-baseline-environment.png'), fullPage: true });

    // The user fixes the check and runs the baseline again from the page.
    await call(base, 'PUT', `/api/projects/${world.projectId}`, {
      checks: {
        [repository]: [
          { name: 'test', command: 'node check.js' },
          { name: 'known', command: 'node known.js' },
        ],
      },
    });
    const [again] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/baseline')),
      panel.getByRole('button', { name: 'Run baseline again' }).click(),
    ]);
    expect(again.status()).toBe(202);
    await expect
      .poll(() => panel.getByTestId('baseline-summary').textContent(), { timeout: 30_000 })
      .toContain('1 check fails before any change: not counted against the todos.');
    await expect.poll(() => taskNote.count(), { timeout: 15_000 }).toBe(0);

    // Retried, the todo changes a file; the known failure does not fail it and gets no repair turn.
    model.push({
      when: { lastMessageIncludes: 'Do todo 1 of 2: Greet' },
      toolCalls: [
        { name: 'write_file', arguments: { path: `${repository}/greeting.txt`, content: 'hello\n' } },
      ],
    });
    model.push({
      when: { lastMessageIncludes: `Created ${repository}/greeting.txt` },
      text: 'Wrote a greeting.',
    });
    await row(1).getByRole('button', { name: 'Retry' }).click();
    await row(1).locator('.badge', { hasText: 'done' }).waitFor({ timeout: 60_000 });
    const todoChecks = page.getByRole('region', { name: 'Checks', exact: true });
    await todoChecks.getByTestId('check-failing-before').waitFor({ timeout: 15_000 });
    expect(await todoChecks.locator('.badge', { hasText: 'failing before' }).count()).toBe(1);
    expect(await todoChecks.locator('[data-outcome=passed]').count()).toBe(1);
    const done = await getTask(task.id);
    expect(done.todos[0]).toMatchObject({ status: 'done', error_code: null });
    expect(
      model.chatRequests.some((request) => JSON.stringify(request.messages).includes('Fix the code')),
    ).toBe(false);
    await page.screenshot({ path: join(shots, 'checks-baseline-failing-before.png'), fullPage: true });
  }, 180_000);

  // Issue #38, point 3: a repair is told as a timeline (checks failed → repair 1 → checks passed), not as a
  // message of the user's, the todo carries a repair badge, and the failing run's output stays readable.
  test('a repair turn: a timeline in the transcript, a badge on the todo, every run of the checks kept', async () => {
    const repository = basename(world.repo.path);
    await call(base, 'PUT', `/api/projects/${world.projectId}`, {
      checks: { [repository]: [{ name: 'greet', command: 'node greet-check.js' }] },
      repair_turns: 2,
    });
    // Two todos: after the first the task stays in coding, its list on the page.
    const task = await codingTask(['Greet', 'Wave']);
    const write = (content: string) => ({
      toolCalls: [{ name: 'write_file', arguments: { path: `${repository}/greeting.txt`, content } }],
    });
    model.push({ when: { lastMessageIncludes: 'Do todo 1 of 2: Greet' }, ...write('bye\n') });
    model.push({ when: { lastMessageIncludes: 'greeting.txt does not say hello' }, ...write('hello\n') });
    model.push({ when: { lastRole: 'tool' }, text: 'Done.', repeat: true });
    await page.goto(`${base}/tasks/${task.id}`);
    const row = page.locator('.todo-list li').first();
    await row.getByRole('button', { name: 'Execute' }).click();
    await row
      .locator('.badge', { hasText: 'done' })
      .waitFor({ timeout: 60_000 })
      .catch(async (error: unknown) => {
        throw new Error(`${error}\n${JSON.stringify(await getTask(task.id), null, 1).slice(0, 4000)}`);
      });
    await row.locator('.badge', { hasText: 'repair 1' }).waitFor();

    const transcript = page.getByTestId('session-view');
    await transcript.getByTestId('step-repair').waitFor();
    const timeline = await transcript.locator('[data-testid^=step-]').allTextContents();
    expect(timeline).toEqual([
      'checks failed greet failed',
      'repair Repair 1 of 2: greet failed',
      'checks passed greet passed',
    ]);
    // The workbench's repair prompt is not shown as the user's message.
    expect(await transcript.locator('.t-user').allTextContents()).toEqual(['YouTodo 1: Greet']);

    const runs = page.getByRole('region', { name: 'Check runs' }).getByTestId('check-run');
    expect(await runs.count()).toBe(2);
    expect(await runs.nth(0).getAttribute('data-passed')).toBe('false');
    expect(await runs.nth(1).getAttribute('data-passed')).toBe('true');
    await runs.nth(0).locator('summary').first().click();
    await runs.nth(0).getByText('greeting.txt does not say hello').waitFor();
    await page.screenshot({ path: join(shots, 'checks-repair-timeline.png'), fullPage: true });
  }, 180_000);
});
