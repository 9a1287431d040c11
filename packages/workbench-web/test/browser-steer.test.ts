// Steering a task from the SPA (issue #23), in Debian's Chromium against the REAL workbench service in
// process (the real Keel runner, a scripted model): the task page follows the task's stage unless the user
// reads an earlier one (with a way back), Stop on a running todo and on a running plan turn, Skip on any
// pending todo with Run all leaving it out, the not-found page of an unknown task, and every page at 390 px
// without a horizontal scroll (screenshots in test/screenshots/, named `narrow-*`).
import { basename, join } from 'node:path';
import { eventually, type MockModel, type ScriptedReply, type TempGitRepo } from '@keel/testkit';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type BrowserWorld, call, hasChromium, shots, startBrowserWorld } from './harness.ts';

interface Todo {
  id: string;
  position: number;
  title: string;
  status: string;
  session_id: string | null;
}

interface Task {
  id: string;
  state: string;
  plan: string | null;
  plan_session_id: string | null;
  init: { status: string };
  todos: Todo[];
}

/** The last message's text of every chat request the model got. */
function lastMessages(model: MockModel): string[] {
  return model.chatRequests.map((body) => {
    const content = body.messages?.at(-1)?.content;
    if (typeof content === 'string') return content;
    if (Array.isArray(content)) {
      return content.map((part) => (part as { text?: string }).text ?? '').join('');
    }
    return '';
  });
}

describe.skipIf(!hasChromium)('the workbench SPA: steering a task', () => {
  let world: BrowserWorld;
  let page: Page;
  let model: MockModel;
  let base = '';
  let repo: TempGitRepo;
  let projectId = '';
  // Tasks the tests leave in each stage, for the narrow-layout test.
  const left: Record<string, string> = {};

  beforeAll(async () => {
    world = await startBrowserWorld({ prefix: 'steer' });
    ({ page, model, base, repo, projectId } = world);
  }, 120_000);

  afterEach(() => {
    if (world.pageErrors.length > 0) console.error(`errors in the page:\n${world.pageErrors.join('\n')}`);
    expect(world.pageErrors).toEqual([]);
  });

  afterAll(async () => {
    await world?.close();
  });

  const getTask = (id: string) => call<Task>(base, 'GET', `/api/tasks/${id}`);

  /**
   * A task taken through the API to PLANNING (initialized and confirmed). `plan` is the model's answer to
   * the first plan turn, pushed before the confirmation: the service may start the draft by itself then.
   */
  async function planningTask(description: string, plan: ScriptedReply): Promise<Task> {
    const task = await call<Task>(base, 'POST', '/api/tasks', { project_id: projectId, description });
    // The service may start the initialization on creation already (409 TASK_BUSY then).
    await call(base, 'POST', `/api/tasks/${task.id}/init`).catch(() => undefined);
    await eventually(async () => (await getTask(task.id)).init.status === 'done', {
      timeoutMs: 30_000,
      what: 'the task initialization',
    });
    model.push(plan);
    return call<Task>(base, 'POST', `/api/tasks/${task.id}/confirm-init`);
  }

  /** A task taken through the API to TODO_READY with these todos. */
  async function todoReadyTask(description: string, titles: string[]): Promise<Task> {
    const task = await planningTask(description, {
      when: { lastMessageIncludes: 'Write the technical plan' },
      text: `# Plan\n\n${description}`,
    });
    // Drafted by the confirmation already, or now (409 SESSION_BUSY while it runs).
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
    await call(base, 'POST', `/api/tasks/${task.id}/lock-plan`);
    await eventually(async () => (await getTask(task.id)).state === 'TODO_READY', {
      timeoutMs: 30_000,
      what: 'the todo list',
    });
    return getTask(task.id);
  }

  const heading = () => page.locator('#stage-title');
  const current = () => page.locator('.stepper [aria-current=step]');

  test('the page follows the task; Stop on a running todo fails it (Retry works); a skipped todo never runs in Run all', async () => {
    const titles = ['Alpha step', 'Beta step', 'Gamma step'];
    const task = await todoReadyTask('Steer the coding', titles);
    left.reviewing = task.id;
    await page.goto(`${base}/tasks/${task.id}`);
    await expect.poll(() => heading().textContent()).toBe('03 · Task breakdown');

    // Reading an earlier stage says so and leads back.
    await page.locator('.stepper button', { hasText: 'Initialization' }).click();
    await expect.poll(() => heading().textContent()).toBe('01 · Initialization');
    const back = page.getByRole('button', { name: 'Back to the current stage (03 Todos)' });
    await back.click();
    await expect.poll(() => heading().textContent()).toBe('03 · Task breakdown');
    await expect.poll(() => back.count()).toBe(0);

    // A click on the current stage, then "Start coding": the page shows stage 04 (it used to stay on 03).
    await page.locator('.stepper button', { hasText: 'Todos' }).click();
    await page.getByRole('button', { name: 'Start coding →' }).click();
    await expect.poll(() => heading().textContent()).toBe('04 · Coding');
    await expect.poll(() => current().textContent()).toContain('04');

    // Skip the second todo, out of order (the first is still pending).
    await page.getByRole('button', { name: 'Skip todo 2' }).click();
    const row = (position: number) => page.locator('.todo-list li').nth(position - 1);
    await row(2).locator('.badge', { hasText: 'skipped' }).waitFor();
    await page.getByTestId('skipped-count').waitFor();

    // The first todo runs until stopped (the scripted model answers after a minute).
    model.push({
      when: { lastMessageIncludes: 'Do todo 1 of 3: Alpha step' },
      text: 'slow',
      delayMs: 60_000,
    });
    const [executed] = await Promise.all([
      page.waitForResponse((response) => response.url().includes('/execute') && response.status() === 202),
      row(1).getByRole('button', { name: 'Execute' }).click(),
    ]);
    expect(executed.ok()).toBe(true);
    const stop = row(1).getByRole('button', { name: 'Stop todo 1' });
    await stop.waitFor({ timeout: 15_000 });
    await row(1).locator('.badge', { hasText: 'running' }).waitFor();
    // Stop once the slow answer is being waited for: stopped earlier, it would stay scripted for the retry.
    await eventually(() => lastMessages(model).some((text) => text.includes('Do todo 1 of 3: Alpha step')), {
      what: 'the first todo asked the model',
    });
    await page.screenshot({ path: join(shots, 'steer-coding-running.png'), fullPage: true });
    const [stopped] = await Promise.all([
      page.waitForResponse((response) => response.url().includes('/stop')),
      stop.click(),
    ]);
    expect(stopped.status()).toBe(200);
    // The user's own Stop is no failure: said neutrally in the todo, the task's badge and the transcript.
    const stoppedBadge = row(1).locator('.badge', { hasText: 'stopped by you' });
    await stoppedBadge.waitFor({ timeout: 15_000 });
    expect(await stoppedBadge.getAttribute('class')).toContain('badge-muted');
    expect(await row(1).locator('.error-text').count()).toBe(0);
    await page.getByTestId('stop-outcome').filter({ hasText: 'You stopped “Alpha step”' }).waitFor();
    const taskBadge = page.locator('.task-head .badge[data-state=CODING]');
    expect(await taskBadge.textContent()).toBe('stopped by you');
    expect(await taskBadge.getAttribute('class')).not.toContain('badge-bad');
    const transcript = page.getByTestId('session-view');
    await transcript.getByTestId('stopped-by-you').waitFor();
    expect(await transcript.locator('.t-error').count()).toBe(0);
    expect(await transcript.locator('.session-head .badge').textContent()).toBe('stopped');
    const retry = row(1).getByRole('button', { name: 'Retry' });
    await expect.poll(() => retry.isEnabled()).toBe(true);
    expect((await getTask(task.id)).todos.find((todo) => todo.position === 1)).toMatchObject({
      status: 'failed',
      error_code: 'STOPPED',
    });
    await page.screenshot({ path: join(shots, 'steer-coding-stopped.png'), fullPage: true });

    // Retry works: the first todo runs again and is done.
    model.push({ when: { lastMessageIncludes: 'Do todo 1 of 3: Alpha step' }, text: 'Did alpha.' });
    await retry.click();
    await row(1)
      .locator('.badge', { hasText: 'done' })
      .waitFor({ timeout: 60_000 })
      .catch(async (error: unknown) => {
        await page.screenshot({ path: join(shots, 'steer-retry-failed.png'), fullPage: true });
        throw new Error(`${error}\n${JSON.stringify(await getTask(task.id), null, 1).slice(0, 3000)}`);
      });

    // Tokens: the todo's (its session's, both turns) and the task's total, in the header.
    await expect.poll(() => row(1).getByTestId('todo-usage').textContent()).toMatch(/^[\d,]+ tokens$/);
    await expect
      .poll(() => page.locator('.task-head').getByTestId('task-usage').textContent())
      .toMatch(/^[\d,]+ tokens$/);

    // Run all: the third todo runs, the skipped second never does; the page moves on to review by itself.
    model.push({ when: { lastMessageIncludes: 'Do todo 3 of 3: Gamma step' }, text: 'Did gamma.' });
    // The commit message (the service may write it by itself once the task is in review).
    model.push({ when: { lastMessageIncludes: 'Write the commit message' }, text: 'feat: steer the coding' });
    await page.getByRole('button', { name: /Run all remaining/ }).click();
    await expect.poll(() => heading().textContent(), { timeout: 60_000 }).toBe('05 · Code review');
    const done = await getTask(task.id);
    expect(done.state).toBe('REVIEWING');
    expect(done.todos.map((todo) => todo.status)).toEqual(['done', 'skipped', 'done']);
    expect(done.todos[1]?.session_id).toBeNull();
    expect(lastMessages(model).some((text) => text.includes('Do todo 2 of 3'))).toBe(false);
    expect(lastMessages(model).some((text) => text.includes('Do todo 3 of 3'))).toBe(true);

    // Reading an earlier stage of a task that no longer changes: the way back names the current stage.
    await page.locator('.stepper button', { hasText: 'Coding' }).click();
    await expect.poll(() => heading().textContent()).toBe('04 · Coding');
    await page.getByRole('button', { name: 'Back to the current stage (05 Review)' }).click();
    await expect.poll(() => heading().textContent()).toBe('05 · Code review');
  }, 180_000);

  test("the Changes panel shows a running todo's file as soon as its session wrote it, with no timer; a message steers the todo", async () => {
    const task = await todoReadyTask('Live changes', ['Write the greeting']);
    await call(base, 'POST', `/api/tasks/${task.id}/start-coding`);
    // The repository's check, run after the todo in the sandbox: it passes once the file is there.
    await call(base, 'PUT', `/api/projects/${projectId}`, {
      checks: { [basename(repo.path)]: [{ name: 'test', command: 'test -f src/greeting.js' }] },
    });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    model.push(
      {
        when: { lastMessageIncludes: 'Do todo 1 of 1' },
        toolCalls: [
          // The todo's workdir holds one folder per repository.
          {
            name: 'write_file',
            arguments: { path: `${basename(repo.path)}/src/greeting.js`, content: 'export const hi = 1;\n' },
          },
        ],
      },
      // The todo stays running until the panel has been looked at.
      { when: { lastRole: 'tool' }, text: 'Wrote the greeting.', until: held },
      { when: { lastMessageIncludes: 'Write the commit message' }, text: 'feat: greet' },
    );
    await page.goto(`${base}/tasks/${task.id}`);
    await expect.poll(() => heading().textContent()).toBe('04 · Coding');
    // Every diff read the page makes from now on: none may come from a timer while the todo waits.
    const diffReads: number[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/diff')) diffReads.push(Date.now());
    });
    await page.locator('.todo-list li').first().getByRole('button', { name: 'Execute' }).click();
    const panel = page.getByRole('region', { name: 'Todo diff' });
    await panel.getByText('src/greeting.js').first().waitFor({ timeout: 30_000 });
    expect((await getTask(task.id)).todos[0]?.status).toBe('running');
    await page.screenshot({ path: join(shots, 'steer-live-diff.png'), fullPage: true });
    // Nothing more happens in the session: the panel reads nothing more (it used to poll every 3 s).
    const reads = diffReads.length;
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 3500)));
    expect(diffReads.length).toBe(reads);
    // A message to the running todo's agent waits in its session, then is answered within the todo.
    const box = page.getByLabel('Message to the agent');
    await box.fill('Also export a goodbye.');
    await box.press('Enter');
    await page.getByTestId('queued-message').filter({ hasText: 'Also export a goodbye.' }).waitFor();
    model.push({ when: { lastMessageIncludes: 'Also export a goodbye.' }, text: 'Exported it too.' });
    release();
    // The last todo done, the task goes on to review (and its commit message) by itself.
    await expect.poll(() => heading().textContent(), { timeout: 30_000 }).toBe('05 · Code review');
    expect(lastMessages(model).some((text) => text.includes('Also export a goodbye.'))).toBe(true);
    // Back on the coding stage: the todo's check passed, with its command (the todo's own list, not the
    // baseline's "Before any change", which shows the same check as it was before the todo).
    await page.locator('.stepper button', { hasText: 'Coding' }).click();
    const check = page.getByRole('region', { name: 'Checks', exact: true }).getByTestId('todo-check');
    await check.filter({ hasText: 'test -f src/greeting.js' }).waitFor();
    expect(await check.locator('.badge').textContent()).toBe('passed');
    await page.screenshot({ path: join(shots, 'steer-todo-checks.png'), fullPage: true });
    await call(base, 'PUT', `/api/projects/${projectId}`, { checks: { [basename(repo.path)]: [] } });
  }, 120_000);

  test('while the user reads an earlier stage, a change of the task (elsewhere) moves the page to the new stage', async () => {
    const task = await todoReadyTask('Follow the task', ['Only step']);
    left.coding = task.id;
    await page.goto(`${base}/tasks/${task.id}`);
    await expect.poll(() => heading().textContent()).toBe('03 · Task breakdown');
    await page.locator('.stepper button', { hasText: 'Plan' }).click();
    await expect.poll(() => heading().textContent()).toBe('02 · Technical plan');
    await page.getByRole('button', { name: 'Back to the current stage (03 Todos)' }).waitFor();
    // Another tab (here: the API) starts coding; the page's next look at the task moves it to 04.
    await call(base, 'POST', `/api/tasks/${task.id}/start-coding`);
    await expect.poll(() => heading().textContent(), { timeout: 15_000 }).toBe('04 · Coding');
    expect(await page.getByRole('button', { name: /Back to the current stage/ }).count()).toBe(0);
  }, 120_000);

  test('Stop on a running plan turn: the turn ends cancelled, the task stays in planning and the plan can be drafted again', async () => {
    const task = await planningTask('Stop the plan', {
      when: { lastMessageIncludes: 'Write the technical plan' },
      text: '# Never',
      delayMs: 60_000,
    });
    left.planning = task.id;
    await page.goto(`${base}/tasks/${task.id}`);
    await expect.poll(() => heading().textContent()).toBe('02 · Technical plan');
    // The draft starts by itself on confirmation, or by the button.
    const session = page.getByTestId('session-view');
    const stop = session.getByRole('button', { name: /^Stop/ });
    const draft = page.getByRole('button', { name: 'Draft the plan' });
    await stop.or(draft).first().waitFor({ timeout: 15_000 });
    if (await draft.isVisible()) await draft.click();
    await stop.waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(shots, 'steer-plan-running.png'), fullPage: true });
    const [stopped] = await Promise.all([
      page.waitForResponse((response) => response.url().includes('/stop')),
      stop.click(),
    ]);
    expect(stopped.status()).toBe(200);
    // The turn ended because the user stopped it: said neutrally, not as an error.
    await session.locator('.session-head .badge', { hasText: 'stopped' }).waitFor({ timeout: 15_000 });
    await session.getByTestId('stopped-by-you').waitFor();
    expect(await session.locator('.t-error').count()).toBe(0);
    await expect.poll(() => stop.count()).toBe(0);
    const after = await getTask(task.id);
    expect(after.state).toBe('PLANNING');
    expect(after.plan).toBeNull();
    // The plan can be drafted again, and is.
    model.push({ when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan again' });
    model.push({ when: { lastMessageIncludes: 'Review the plan' }, text: '# Plan again' });
    await page.getByRole('button', { name: 'Draft the plan' }).click();
    await page.locator('.doc h1', { hasText: 'Plan again' }).waitFor({ timeout: 30_000 });
  }, 120_000);

  test('refinements sent while the plan turn runs wait in its queue (shown, one cancelled) and the other runs next', async () => {
    // The draft's answer is held until the queue has been looked at: no guess at how long a turn takes.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const task = await planningTask('Queue refinements', {
      when: { lastMessageIncludes: 'Write the technical plan' },
      text: '# First plan',
      until: held,
    });
    await page.goto(`${base}/tasks/${task.id}`);
    await expect.poll(() => heading().textContent()).toBe('02 · Technical plan');
    const session = page.getByTestId('session-view');
    const draft = page.getByRole('button', { name: 'Draft the plan' });
    const stop = session.getByRole('button', { name: /^Stop/ });
    await stop.or(draft).first().waitFor({ timeout: 15_000 });
    if (await draft.isVisible()) await draft.click();
    await stop.waitFor({ timeout: 15_000 });

    const refine = page.getByLabel('Refine the plan');
    const queued = page.getByTestId('queued-message');
    for (const message of ['Add a migration step.', 'Rewrite it in Latin.']) {
      await refine.fill(message);
      await refine.press('Enter');
      await queued.filter({ hasText: message }).waitFor();
    }
    expect(await queued.allTextContents()).toEqual([
      expect.stringContaining('Add a migration step.'),
      expect.stringContaining('Rewrite it in Latin.'),
    ]);
    expect(await page.locator('.message-box [role=alert]').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'steer-plan-queued.png'), fullPage: true });
    await page.getByRole('button', { name: 'Cancel the queued message: Rewrite it in Latin.' }).click();
    await expect.poll(() => queued.count()).toBe(1);

    model.push({
      when: { lastMessageIncludes: 'Add a migration step.' },
      text: '# Second plan\n\nWith a migration.',
    });
    release();
    // The draft ends, then the queued refinement is the session's next turn; its answer is the plan.
    await page.locator('.doc h1', { hasText: 'Second plan' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => queued.count()).toBe(0);
    expect((await getTask(task.id)).plan).toContain('With a migration.');
    const asked = lastMessages(model);
    expect(asked.some((text) => text.includes('Add a migration step.'))).toBe(true);
    expect(asked.some((text) => text.includes('Latin'))).toBe(false);
    // Both turns are in the plan conversation, the refinement as the user's message.
    await session.getByText('Add a migration step.').first().waitFor();
  }, 120_000);

  test('an unknown task shows a not-found page with the way back to the task list', async () => {
    await page.goto(`${base}/tasks/tsk_does_not_exist`);
    await page.getByRole('heading', { name: 'Task not found' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('link', { name: /All tasks/ }).click();
    await page.waitForURL(`${base}/tasks`);
    await page.getByRole('heading', { name: 'Tasks' }).waitFor();
  }, 60_000);

  test('at 390 px wide no page scrolls sideways (screenshots: narrow-*.png)', async () => {
    const created = await call<Task>(base, 'POST', '/api/tasks', {
      project_id: projectId,
      description: 'A task with a rather long first line that has to wrap on a phone-sized screen',
    });
    const todoReady = await todoReadyTask('Narrow todos', ['First narrow step', 'Second narrow step']);
    const conversation = await call<{ id: string }>(base, 'POST', '/api/conversations', {
      title: 'Narrow chat',
      project_id: projectId,
    });
    await call(base, 'POST', '/api/skills', {
      name: 'narrow-skill',
      description: 'A skill to show on a narrow screen.',
      content: '# Narrow\n\nUse two-space indentation.',
    });
    const narrow = await world.browser.newPage({ viewport: { width: 390, height: 844 } });
    narrow.on('pageerror', (error) => world.pageErrors.push(error.message));
    const stage = (number: string) => async () => {
      const name = { '01': 'Initialization', '02': 'Plan', '03': 'Todos', '04': 'Coding', '05': 'Review' }[
        number
      ];
      await narrow.locator('.stepper button', { hasText: name }).click();
      await expect.poll(() => narrow.locator('#stage-title').textContent()).toContain(number);
    };
    const pages: { name: string; path: string; ready: () => Promise<unknown> }[] = [
      {
        name: 'projects',
        path: '/projects',
        ready: () => narrow.getByTestId('project-list').getByText('Greeter').waitFor(),
      },
      {
        name: 'project',
        path: `/projects/${projectId}`,
        ready: () => narrow.getByRole('heading', { name: 'Greeter' }).waitFor(),
      },
      { name: 'tasks', path: '/tasks', ready: () => narrow.getByTestId('task-list').waitFor() },
      {
        name: 'task-new',
        path: `/tasks/new?project=${projectId}`,
        ready: () => narrow.locator('textarea[name=description]').waitFor(),
      },
      {
        name: 'task-01-created',
        path: `/tasks/${created.id}`,
        // Initialized (by the service, or not yet): the badge never says "initializing" while nothing runs.
        ready: async () => {
          await narrow.locator('#stage-title').waitFor();
          const task = await getTask(created.id);
          if (task.init.status !== 'running') {
            await expect
              .poll(() => narrow.locator('.task-head .badge').textContent())
              .not.toBe('initializing');
          }
        },
      },
      {
        name: 'task-02-planning',
        path: `/tasks/${left.planning}`,
        ready: () => narrow.locator('.doc h1').waitFor(),
      },
      {
        name: 'task-03-todos',
        path: `/tasks/${todoReady.id}`,
        ready: () => narrow.locator('.todo-list li').first().waitFor(),
      },
      {
        name: 'task-04-coding',
        path: `/tasks/${left.coding}`,
        ready: () => narrow.locator('.todo-list li').first().waitFor(),
      },
      {
        name: 'task-05-review',
        path: `/tasks/${left.reviewing}`,
        ready: () => narrow.locator('.diff-panel, .diff-file, .empty').first().waitFor(),
      },
      { name: 'task-05-at-01', path: `/tasks/${left.reviewing}`, ready: stage('01') },
      { name: 'task-05-at-02', path: `/tasks/${left.reviewing}`, ready: stage('02') },
      { name: 'task-05-at-03', path: `/tasks/${left.reviewing}`, ready: stage('03') },
      { name: 'task-05-at-04', path: `/tasks/${left.reviewing}`, ready: stage('04') },
      {
        name: 'task-not-found',
        path: '/tasks/tsk_nope',
        ready: () => narrow.getByRole('heading', { name: 'Task not found' }).waitFor(),
      },
      { name: 'settings', path: '/settings', ready: () => narrow.locator('input[name=model]').waitFor() },
      {
        name: 'conversations',
        path: '/conversations',
        ready: () => narrow.getByText('Narrow chat').first().waitFor(),
      },
      {
        name: 'conversation',
        path: `/conversations/${conversation.id}`,
        ready: () => narrow.getByRole('heading', { name: 'Narrow chat' }).waitFor(),
      },
      { name: 'skills', path: '/skills', ready: () => narrow.getByText('narrow-skill').first().waitFor() },
    ];
    const wide: string[] = [];
    try {
      for (const each of pages) {
        await narrow.goto(`${base}${each.path}`);
        await each.ready();
        // The width, and what sticks out (the innermost elements past the right edge), to say what to fix.
        // (A script string: this file is type-checked without the DOM's types.)
        const { width, outside } = (await narrow.evaluate(`(() => {
          const edge = document.documentElement.clientWidth;
          const past = [...document.querySelectorAll('body *')].filter(
            (element) => element.getBoundingClientRect().right > edge + 1,
          );
          const innermost = past.filter((element) => !past.some((other) => other !== element && element.contains(other)));
          return {
            width: document.documentElement.scrollWidth,
            outside: innermost.slice(0, 4).map((element) => (element.tagName.toLowerCase() + '.' + element.className).slice(0, 60)),
          };
        })()`)) as { width: number; outside: string[] };
        await narrow.screenshot({ path: join(shots, `narrow-${each.name}.png`), fullPage: true });
        if (width > 390) wide.push(`${each.name}: ${width}px (${outside.join(', ')})`);
      }
    } finally {
      await narrow.close();
    }
    expect(wide).toEqual([]);
  }, 180_000);

  test('a refused project form: each field says what is wrong in words, beside it, until it is edited', async () => {
    await page.goto(`${base}/projects`);
    const form = page.getByRole('form', { name: 'New project' });
    await form.locator('input[name=name]').fill('   ');
    await form.locator('input[name="repositories.0.path"]').fill(join(repo.path, 'not-there'));
    await form.getByRole('button', { name: 'Create project' }).click();
    const name = form.locator('input[name=name]');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    const note = page.locator(`[id="${await name.getAttribute('aria-describedby')}"]`);
    await expect.poll(() => note.locator('.error-words').textContent()).toBe('Name is required.');
    await page.screenshot({ path: join(shots, 'steer-project-form-error.png'), fullPage: true });
    // Editing the field clears its note (the request is not sent again until submitted).
    await name.fill('Fixed name');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBeNull();
    expect(await note.count()).toBe(0);
  }, 60_000);

  test('live output: the transcript follows new output until the user scrolls up, then offers the way back', async () => {
    const lines = Array.from({ length: 60 }, (_, index) => `Line ${index + 1} of the work.`).join('\n\n');
    model.push({ when: { lastMessageIncludes: 'Do todo 1 of 1: Only step' }, text: lines, chunkDelayMs: 60 });
    model.push({ when: { lastMessageIncludes: 'Write the commit message' }, text: 'feat: only step' });
    await page.goto(`${base}/tasks/${left.coding}`);
    await page.getByRole('button', { name: 'Execute' }).click();
    const transcript = page.locator('.coding-detail .transcript');
    type Box = { scrollTop: number; scrollHeight: number; clientHeight: number };
    const metrics = () =>
      transcript.evaluate((box: Box) => ({
        scrollTop: box.scrollTop,
        scrollHeight: box.scrollHeight,
        clientHeight: box.clientHeight,
      }));
    const fromEnd = async () => {
      const box = await metrics();
      return box.scrollHeight - box.scrollTop - box.clientHeight;
    };
    // While the output grows past the box, the box stays at its end.
    await expect
      .poll(async () => (await metrics()).scrollHeight - (await metrics()).clientHeight, { timeout: 30_000 })
      .toBeGreaterThan(100);
    await expect.poll(fromEnd).toBeLessThan(40);
    // The reader scrolls up: new output no longer moves the box.
    await transcript.evaluate((box: Box) => {
      box.scrollTop = 0;
    });
    const follow = page.getByRole('button', { name: '↓ Follow the latest output' });
    await follow.waitFor();
    // More output arrives (the todo is still running: when it ends the page moves on to review).
    const before = (await metrics()).scrollHeight;
    await expect.poll(async () => (await metrics()).scrollHeight).toBeGreaterThan(before + 100);
    expect((await metrics()).scrollTop).toBeLessThan(40);
    await follow.click();
    await expect.poll(fromEnd).toBeLessThan(40);
  }, 90_000);
});
