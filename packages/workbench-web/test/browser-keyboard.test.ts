// Issue #38, point 14: the keyboard and the small screen. In Debian's Chromium against the real workbench
// in process: the first Tab stop is a skip link to the content; `?` shows the shortcuts, `g t` goes to the
// tasks, `/` reaches the message box and `n` takes the stage's next step (here: locks the plan). At 390 px
// the task's facts take one line, and code keeps its lines (it scrolls sideways, it does not wrap mid-token).
// Screenshots `keyboard-*`.
import { join } from 'node:path';
import { eventually } from '@keel/testkit';
import { afterAll, describe, expect, test } from 'vitest';
import { type BrowserWorld, call, hasChromium, shots, startBrowserWorld, taskSteps } from './harness.ts';

interface Task {
  id: string;
  state: string;
  plan: string | null;
  init: { status: string };
}

describe.skipIf(!hasChromium)('the workbench SPA: keyboard and small screens', () => {
  let world: BrowserWorld | undefined;
  afterAll(async () => {
    await world?.close();
  });

  test('skip link, shortcuts (?, g t, /, n), one line of facts and unbroken code at 390 px', {
    timeout: 120_000,
  }, async () => {
    world = await startBrowserWorld({
      prefix: 'keyboard',
      script: (repository) => [
        {
          when: { lastMessageIncludes: 'Write the technical plan' },
          toolCalls: [
            {
              name: 'read_file',
              arguments: {
                path: `${repository}/notes/a-rather-long-file-name-that-would-wrap-mid-token-on-a-phone-screen.txt`,
              },
            },
          ],
        },
        { when: { lastRole: 'tool' }, text: '# Plan\n\nKeys.' },
        {
          when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
          text: '[{"title": "Keys", "description": "Add keys", "expected_output": "keys"}]',
        },
      ],
    });
    const { page, base } = world;
    const steps = taskSteps(world);
    const getTask = (id: string) => call<Task>(base, 'GET', `/api/tasks/${id}`);
    const task = await steps.initialized('Keys');
    await steps.planned(task.id);

    // The skip link: the first Tab stop, to the content.
    await page.goto(`${base}/projects`);
    await page.getByRole('heading', { name: 'Projects', exact: true, level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to the content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');

    // ? shows the help, Escape closes it; g t goes to the tasks.
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await page.screenshot({ path: join(shots, 'keyboard-help.png') });
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    await page.keyboard.press('g');
    await page.keyboard.press('t');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/tasks');

    // On the task: / to the message box (typing there is not a shortcut), n for the next step.
    await page.goto(`${base}/tasks/${task.id}`);
    await page.getByRole('button', { name: 'Lock plan →' }).waitFor();
    await expect.poll(async () => (await getTask(task.id)).state).toBe('PLANNING');
    await page.keyboard.press('/');
    expect(await page.evaluate('document.activeElement.tagName')).toBe('TEXTAREA');
    await page.keyboard.type('n');
    expect((await getTask(task.id)).state).toBe('PLANNING');
    await page.evaluate('document.activeElement.blur()');
    // Lock once the plan session is free (the draft's turn ends just after plan.md is written).
    await eventually(
      async () => {
        await page.keyboard.press('n');
        return (await getTask(task.id)).state !== 'PLANNING';
      },
      { timeoutMs: 30_000, what: 'n to lock the plan' },
    );

    // 390 px: the facts in one line; a long path in the plan session's tool call scrolls, unbroken.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.stepper button', { hasText: 'Plan' }).click();
    const facts = page.locator('.task-head .facts');
    const height = (await facts.boundingBox())?.height ?? 0;
    expect(height).toBeLessThan(80);
    const args = page.locator('.tool-args').first();
    await page.locator('.t-tool summary').first().click();
    await args.waitFor();
    expect(await page.evaluate("getComputedStyle(document.querySelector('.tool-args')).whiteSpace")).toBe(
      'pre',
    );
    const pageWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    expect(pageWidth).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(shots, 'keyboard-task-390.png'), fullPage: true });

    // The board (issue #38, point 15), kept as the chosen view: a column per stage, then Done and Cancelled;
    // at 390 px it scrolls inside itself, not the page.
    const cancelled = await call<Task>(base, 'POST', '/api/tasks', {
      project_id: world.projectId,
      description: 'Dropped',
    });
    await call(base, 'POST', `/api/tasks/${cancelled.id}/cancel`);
    await page.goto(`${base}/tasks`);
    await page.getByRole('radio', { name: 'Board' }).check();
    const board = page.getByTestId('task-board');
    const labels: (string | null)[] = [];
    for (const region of await board.getByRole('region').all())
      labels.push(await region.getAttribute('aria-label'));
    expect(labels).toEqual([
      '01 Initialization',
      '02 Plan',
      '03 Todos',
      '04 Coding',
      '05 Review',
      'Done',
      'Cancelled',
    ]);
    await board.getByRole('region', { name: '03 Todos' }).getByRole('link', { name: 'Keys' }).waitFor();
    await board.getByRole('region', { name: 'Cancelled' }).getByRole('link', { name: 'Dropped' }).waitFor();
    expect((await page.evaluate('document.documentElement.scrollWidth')) as number).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(shots, 'keyboard-board-390.png'), fullPage: true });
    await page.reload();
    await page.getByTestId('task-board').waitFor();
    expect(await page.getByRole('radio', { name: 'Board' }).isChecked()).toBe(true);
  });
});
