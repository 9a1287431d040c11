// Issue #38, point 8: long work says how long it has run and how far it is, and tells a user who looks
// elsewhere when it ends. In Debian's Chromium against the real workbench in process: Run all over two
// todos; while the first one's turn is held, its session says for how long it runs and how many tool calls it
// made, the coding stage says "Running todo 1 of 2", the task's badge too, and the tab title starts with ●.
// The page is then not looked at (no focus): when the work ends, the opted-in notification comes and the
// title starts with ✓ until the page is looked at again. Screenshot `attention-running.png`.
import { join } from 'node:path';
import { eventually } from '@keel/testkit';
import { afterAll, describe, expect, test } from 'vitest';
import { type BrowserWorld, call, hasChromium, shots, startBrowserWorld, taskSteps } from './harness.ts';

interface Task {
  id: string;
  state: string;
  plan: string | null;
  init: { status: string };
  review: { status: string } | null;
  commit_message: string | null;
}

// A stand-in for the browser's Notification (a headless page shows none) that records each one, and a
// focus the test can take away: the page then behaves as in a tab the user is not looking at.
const recorder = `
  window.__notes = [];
  window.__focused = true;
  window.Notification = class {
    // A permission once given stays, as the browser keeps it for the site.
    static permission = localStorage.getItem('keel-workbench-notify') === '1' ? 'granted' : 'default';
    static async requestPermission() { window.Notification.permission = 'granted'; return 'granted'; }
    constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
  };
  document.hasFocus = () => window.__focused;
`;

describe.skipIf(!hasChromium)('the workbench SPA: progress and time on long work', () => {
  let world: BrowserWorld | undefined;
  afterAll(async () => {
    await world?.close();
  });

  test('elapsed time, tool calls and "todo 1 of 2" while it runs; a notification and ✓ when it ends unseen', {
    timeout: 180_000,
  }, async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    world = await startBrowserWorld({
      prefix: 'attention',
      script: (repository) => [
        { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nTwo notes.' },
        {
          when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
          text: '[{"title": "First note", "description": "Write a", "expected_output": "a"}, {"title": "Second note", "description": "Write b", "expected_output": "b"}]',
        },
        {
          when: { lastMessageIncludes: 'Do todo 1 of 2' },
          toolCalls: [{ name: 'write_file', arguments: { path: `${repository}/a.txt`, content: 'a\n' } }],
        },
        { when: { lastRole: 'tool' }, text: 'Wrote a.', until: held },
        { when: { lastMessageIncludes: 'Do todo 2 of 2' }, text: 'Nothing more to write.' },
        { when: { lastMessageIncludes: 'Write the commit message' }, text: 'Add notes', repeat: true },
      ],
    });
    const { page, base } = world;
    await page.addInitScript(recorder);
    const steps = taskSteps(world);
    const getTask = (id: string) => call<Task>(base, 'GET', `/api/tasks/${id}`);
    const task = await steps.initialized('Notes');
    await steps.planned(task.id);
    await steps.todosReady(task.id);
    await call(base, 'POST', `/api/tasks/${task.id}/start-coding`);

    await page.goto(`${base}/tasks/${task.id}`);
    await page.getByRole('checkbox', { name: 'Notify me when work ends' }).check();
    await page.getByRole('button', { name: /^Run all remaining/ }).click();

    // While the first todo's turn is held.
    await page
      .getByTestId('coding-progress')
      .filter({ hasText: 'Running todo 1 of 2: “First note”' })
      .waitFor();
    expect(await page.locator('.task-head .badge[data-state=CODING]').textContent()).toBe(
      'coding · todo 1 of 2',
    );
    const progress = page.getByTestId('session-view').getByTestId('turn-progress');
    await expect.poll(() => progress.textContent(), { timeout: 30_000 }).toMatch(/^for \d+ s · 1 tool call$/);
    // The clock runs by itself: the text changes with no event from the service.
    const first = await progress.textContent();
    await expect.poll(() => progress.textContent(), { timeout: 30_000 }).not.toBe(first);
    expect(await page.title()).toBe('● coding · todo 1 of 2 · Notes — Keel workbench');
    await page.screenshot({ path: join(shots, 'attention-running.png'), fullPage: true });

    // The board (issue #38, point 15): the task in the Coding column, marked as working.
    await page.goto(`${base}/tasks`);
    await page.getByRole('radio', { name: 'Board' }).check();
    const card = page.getByRole('region', { name: '04 Coding' }).getByTestId('board-card');
    await card.filter({ hasText: 'Notes' }).waitFor();
    expect(await card.getAttribute('class')).toContain('working');
    expect(await card.locator('.badge').textContent()).toBe('coding · todo 1 of 2');
    await page.screenshot({ path: join(shots, 'attention-board.png'), fullPage: true });
    await page.goto(`${base}/tasks/${task.id}`);
    await page.getByTestId('coding-progress').waitFor();

    // The user looks elsewhere; the work ends (both todos, the review, the commit message).
    await page.evaluate('window.__focused = false');
    release();
    await eventually(
      async () => {
        const current = await getTask(task.id);
        return (
          current.state === 'REVIEWING' &&
          current.review?.status === 'done' &&
          current.commit_message !== null
        );
      },
      { timeoutMs: 60_000, what: 'the review and the commit message' },
    );
    await expect.poll(() => page.evaluate('window.__notes.length'), { timeout: 30_000 }).toBeGreaterThan(0);
    const notes = (await page.evaluate('window.__notes')) as { title: string; body: string }[];
    expect(notes[0]?.title).toBe('Keel: Notes');
    await expect.poll(() => page.title()).toMatch(/^✓ .* · Notes — Keel workbench$/);
    expect(await page.getByTestId('turn-progress').count()).toBe(0);

    // Looked at again: the mark goes.
    await page.evaluate("window.__focused = true; window.dispatchEvent(new Event('focus'))");
    await expect.poll(() => page.title()).not.toMatch(/^✓/);
  });
});
