// long-running: every page at two widths and two themes, each checked by axe
// An accessibility pass with axe-core over every page of the workbench SPA, in Debian's Chromium against the
// REAL workbench service in process (the real Keel runner, a scripted model): the project list and a project,
// the task list, the new-task form, one task in each stage (initialized, plan drafted, todos ready, coding
// with a done todo, review), settings, skills and a skill, conversations, a conversation and the not-found
// pages, each at 1280 px and at 390 px wide, and at 1280 px in the dark theme too. No serious or critical
// violation; screenshots `axe-<page>-<width>[-dark].png`.
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { eventually } from '@keel/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BrowserWorld, call, hasChromium, shots, startBrowserWorld } from './harness.ts';

interface Task {
  id: string;
  state: string;
  plan: string | null;
  init: { status: string };
  review: { status: string } | null;
  todos: { id: string; status: string }[];
}

/**
 * What axe finds on the page at `width` in the light or dark theme that is serious or critical, in words
 * (empty when nothing); with a screenshot, `axe-<name>-<width>[-dark].png`.
 */
async function seriousViolations(page: Page, name: string, width: number, scheme: 'light' | 'dark') {
  await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
  await page.emulateMedia({ colorScheme: scheme });
  const label = `${name}-${width}${scheme === 'dark' ? '-dark' : ''}`;
  await page.screenshot({ path: join(shots, `axe-${label}.png`), fullPage: true });
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => {
      const nodes = violation.nodes
        .slice(0, 8)
        .map((node) => `    ${node.target.join(' ')}${node.any[0] ? ` (${node.any[0].message})` : ''}`);
      const more = violation.nodes.length > 8 ? [`    … and ${violation.nodes.length - 8} more`] : [];
      return [`${label}: ${violation.impact} ${violation.id}: ${violation.help}`, ...nodes, ...more].join(
        '\n',
      );
    });
}

describe.skipIf(!hasChromium)('the workbench SPA: accessibility (axe-core)', () => {
  let world: BrowserWorld | undefined;

  beforeAll(async () => {
    world = await startBrowserWorld({
      prefix: 'axe',
      script: (repository) => [
        {
          when: { lastMessageIncludes: 'Write the technical plan' },
          text: '# Plan\n\nWrite a note, then sign it.',
        },
        {
          when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
          text: JSON.stringify([
            { title: 'Note', description: 'Write a note', expected_output: 'a note' },
            { title: 'Sign', description: 'Sign the note', expected_output: 'a signed note' },
          ]),
        },
        {
          when: { lastMessageIncludes: 'Do todo 1 of 2' },
          toolCalls: [
            { name: 'write_file', arguments: { path: `${repository}/note.txt`, content: 'noted\n' } },
          ],
        },
        { when: { lastRole: 'tool' }, text: 'Noted.' },
        { when: { lastMessageIncludes: 'Do todo 2 of 2' }, text: 'Signed.' },
        {
          when: { lastMessageIncludes: 'Review this change before it becomes a merge request' },
          text: `\`\`\`json\n[{"severity": "warning", "repository": "${repository}", "file": "note.txt", "line": 1, "message": "Say what is noted."}]\n\`\`\``,
        },
        { when: { lastMessageIncludes: 'Write the commit message' }, text: 'Add a note', repeat: true },
        { when: { lastMessageIncludes: 'Say hello' }, text: 'Hello, **there**. Ask me about `src/app.js`.' },
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  test('every page at 1280 px and 390 px: no serious or critical violation', async () => {
    if (!world) throw new Error('no world');
    const { base, projectId } = world;
    // A page in a context of its own: axe opens a page beside it to gather the results of the frames.
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const found: string[] = [];
    /**
     * Opens `path` (unless null: the page is there already), waits for `ready`, then runs axe at 1280 px and
     * 390 px in the light theme and at 1280 px in the dark one (the colours are each theme's own).
     */
    const check = async (name: string, path: string | null, ready: () => Promise<unknown>) => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.emulateMedia({ colorScheme: 'light' });
      if (path !== null) await page.goto(`${base}${path}`);
      await ready();
      found.push(...(await seriousViolations(page, name, 1280, 'light')));
      found.push(...(await seriousViolations(page, name, 390, 'light')));
      found.push(...(await seriousViolations(page, name, 1280, 'dark')));
    };
    const getTask = (id: string) => call<Task>(base, 'GET', `/api/tasks/${id}`);
    const heading = () => page.locator('#stage-title');

    // One task, looked at in each stage it reaches.
    const task = await call<Task>(base, 'POST', '/api/tasks', { project_id: projectId, description: 'Note' });
    await call(base, 'POST', `/api/tasks/${task.id}/init`).catch(() => undefined);
    await eventually(async () => (await getTask(task.id)).init.status === 'done', {
      timeoutMs: 30_000,
      what: 'the task initialization',
    });
    await check('task-01-init', `/tasks/${task.id}`, () =>
      page.getByRole('button', { name: 'Confirm and start planning →' }).waitFor(),
    );

    await call(base, 'POST', `/api/tasks/${task.id}/confirm-init`);
    await call(base, 'POST', `/api/tasks/${task.id}/plan`).catch(() => undefined);
    await eventually(async () => (await getTask(task.id)).plan !== null, {
      timeoutMs: 30_000,
      what: 'the plan',
    });
    await check('task-02-plan', `/tasks/${task.id}`, async () => {
      await expect.poll(() => heading().textContent()).toBe('02 · Technical plan');
      await page.locator('.doc h1', { hasText: 'Plan' }).waitFor();
      await page.locator('.session-head .badge', { hasText: 'succeeded' }).waitFor();
    });

    await call(base, 'POST', `/api/tasks/${task.id}/lock-plan`);
    await eventually(async () => (await getTask(task.id)).state === 'TODO_READY', {
      timeoutMs: 30_000,
      what: 'the todo list',
    });
    await check('task-03-todos', `/tasks/${task.id}`, async () => {
      await expect.poll(() => heading().textContent()).toBe('03 · Task breakdown');
      await page.locator('.todo-list li').nth(1).waitFor();
    });

    await call(base, 'POST', `/api/tasks/${task.id}/start-coding`);
    const [first] = (await getTask(task.id)).todos;
    await call(base, 'POST', `/api/todos/${first?.id}/execute`);
    await eventually(async () => (await getTask(task.id)).todos[0]?.status === 'done', {
      timeoutMs: 60_000,
      what: 'the first todo',
    });
    await check('task-04-coding', `/tasks/${task.id}`, async () => {
      await expect.poll(() => heading().textContent()).toBe('04 · Coding');
      // The done todo, its transcript and its diff (the page picks the pending one by itself).
      await page.locator('.todo-list li').first().locator('.badge', { hasText: 'done' }).waitFor();
      await page.locator('.todo-pick', { hasText: 'Note' }).click();
      await page.getByRole('region', { name: 'Todo diff' }).getByText('note.txt').first().waitFor();
    });

    await call(base, 'POST', `/api/tasks/${task.id}/run-all`);
    await eventually(
      async () => {
        const current = await getTask(task.id);
        return current.state === 'REVIEWING' && current.review?.status === 'done';
      },
      { timeoutMs: 60_000, what: 'the review' },
    );
    await check('task-05-review', `/tasks/${task.id}`, async () => {
      await expect.poll(() => heading().textContent()).toBe('05 · Code review');
      await page.locator('pre.commit-message', { hasText: 'Add a note' }).waitFor({ timeout: 30_000 });
      await page.getByRole('checkbox', { name: 'Follow up: Say what is noted.' }).waitFor();
    });

    await check('projects', '/projects', () =>
      page.getByTestId('project-list').getByText('Greeter').waitFor(),
    );
    await check('project', `/projects/${projectId}`, () =>
      page.getByRole('heading', { name: 'Greeter' }).waitFor(),
    );
    await check('tasks', '/tasks', () => page.getByTestId('task-list').getByText('Note').first().waitFor());
    await check('task-new', `/tasks/new?project=${projectId}`, () =>
      page.locator('textarea[name=description]').waitFor(),
    );
    await check('settings', '/settings', () => page.getByText('Ready: AI actions can run.').waitFor());

    const skill = await call<{ id: string }>(base, 'POST', '/api/skills', {
      name: 'code-review',
      description: 'How we review code.',
      content: '# Code review\n\n- Read the **tests** first.',
    });
    await check('skills', '/skills', () => page.getByTestId('skill-list').getByText('code-review').waitFor());
    await check('skill', `/skills?skill=${skill.id}`, () =>
      page.getByRole('form', { name: 'Edit skill code-review' }).waitFor(),
    );

    const conversation = await call<{ id: string }>(base, 'POST', '/api/conversations', {
      title: 'About the greeter',
      project_id: projectId,
    });
    await check('conversations', '/conversations', () =>
      page.getByTestId('conversation-list').getByText('About the greeter').waitFor(),
    );
    await page.goto(`${base}/conversations/${conversation.id}`);
    await page.getByTestId('session-view').waitFor();
    await page.getByLabel('Message').fill('Say hello');
    await page.getByLabel('Message').press('Enter');
    await page.locator('.t-user', { hasText: 'Say hello' }).waitFor({ timeout: 30_000 });
    await check('conversation', null, async () => {
      await page.locator('.t-assistant .markdown strong', { hasText: 'there' }).waitFor({ timeout: 30_000 });
      await page.locator('.session-head .badge', { hasText: 'succeeded' }).waitFor({ timeout: 30_000 });
    });

    await check('not-found', '/nowhere', () =>
      page.getByRole('heading', { name: 'Page not found' }).waitFor(),
    );
    await check('task-not-found', '/tasks/tsk_nope', () =>
      page.getByRole('heading', { name: 'Task not found' }).waitFor(),
    );

    expect(found, `serious or critical accessibility violations:\n${found.join('\n')}`).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 300_000);
});
