// Issue #38, point 10: no control that cannot be used where the page says the work happens by itself: no
// disabled "Initialize" on a task whose init ran by itself, and no "Write the commit message" while the
// page says it is written once the review has ended; and a follow-up the user asks for can start at once
// ("Follow up and run") instead of waiting for an Execute. Screenshots `dead-controls-*`.
import { join } from 'node:path';
import { eventually } from '@keel/testkit';
import { afterAll, describe, expect, test } from 'vitest';
import { type BrowserWorld, call, hasChromium, shots, startBrowserWorld } from './harness.ts';

interface Task {
  id: string;
  state: string;
  plan: string | null;
  init: { status: string };
  review: { status: string } | null;
  todos: { id: string }[];
}

describe.skipIf(!hasChromium)('the workbench SPA: no dead controls, no needless clicks', () => {
  let world: BrowserWorld | undefined;
  afterAll(async () => {
    await world?.close();
  });

  test('init done by itself: Confirm, no Initialize; review running: no Write the commit message', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    world = await startBrowserWorld({
      prefix: 'dead-controls',
      script: (repository) => [
        { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nNote it.' },
        {
          when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
          text: '[{"title": "Note", "description": "Write a note", "expected_output": "a note"}]',
        },
        {
          when: { lastMessageIncludes: 'Do todo 1 of 1' },
          toolCalls: [
            { name: 'write_file', arguments: { path: `${repository}/note.txt`, content: 'noted\n' } },
          ],
        },
        { when: { lastRole: 'tool' }, text: 'Noted.' },
        {
          when: { lastMessageIncludes: 'Review this change before it becomes a merge request' },
          text: `\`\`\`json\n[{"severity": "warning", "repository": "${repository}", "file": "note.txt", "line": 1, "message": "Say what is noted."}]\n\`\`\``,
          until: held,
        },
        {
          when: { lastMessageIncludes: 'Do todo 2 of 2' },
          toolCalls: [
            { name: 'write_file', arguments: { path: `${repository}/note.txt`, content: 'noted: hi\n' } },
          ],
        },
        { when: { lastRole: 'tool' }, text: 'Said it.' },
        {
          when: { lastMessageIncludes: 'Review this change before it becomes a merge request' },
          text: '```json\n[]\n```',
        },
        { when: { lastMessageIncludes: 'Write the commit message' }, text: 'Add a note', repeat: true },
      ],
    });
    const { page, base } = world;
    const getTask = (id: string) => call<Task>(base, 'GET', `/api/tasks/${id}`);
    const task = await call<Task>(base, 'POST', '/api/tasks', {
      project_id: world.projectId,
      description: 'Note',
    });
    await eventually(async () => (await getTask(task.id)).init.status === 'done', {
      timeoutMs: 30_000,
      what: 'init',
    });
    await page.goto(`${base}/tasks/${task.id}`);
    await page.getByRole('button', { name: 'Confirm and start planning →' }).waitFor();
    expect(await page.getByRole('button', { name: 'Initialize' }).count()).toBe(0);
    await page.screenshot({ path: join(shots, 'dead-controls-init.png'), fullPage: true });

    await call(base, 'POST', `/api/tasks/${task.id}/confirm-init`);
    await eventually(async () => (await getTask(task.id)).plan !== null, { timeoutMs: 30_000, what: 'plan' });
    await eventually(
      async () => {
        await call(base, 'POST', `/api/tasks/${task.id}/lock-plan`).catch(() => undefined);
        return (await getTask(task.id)).state === 'TODO_READY';
      },
      { timeoutMs: 30_000, what: 'todos' },
    );
    await call(base, 'POST', `/api/tasks/${task.id}/start-coding`);
    await call(base, 'POST', `/api/tasks/${task.id}/run-all`);
    await eventually(async () => (await getTask(task.id)).review?.status === 'running', {
      timeoutMs: 60_000,
      what: 'the review to run',
    });
    await page.goto(`${base}/tasks/${task.id}`);
    await page.getByText('The commit message is written once the review has ended.').waitFor();
    expect(await page.getByRole('button', { name: 'Write the commit message' }).count()).toBe(0);
    await page.screenshot({ path: join(shots, 'dead-controls-review.png'), fullPage: true });
    release();
    await page.locator('pre.commit-message', { hasText: 'Add a note' }).waitFor({ timeout: 30_000 });

    // A follow-up the user asks for runs at once when they say so ("Follow up and run"): no Execute needed.
    await page.getByRole('checkbox', { name: 'Follow up: Say what is noted.' }).check();
    await page.getByRole('button', { name: 'Follow up and run (1)' }).click();
    await eventually(
      async () => {
        const current = await getTask(task.id);
        return (
          current.state === 'REVIEWING' && current.review?.status === 'done' && current.todos.length === 2
        );
      },
      { timeoutMs: 60_000, what: 'the follow-up todo to run and the task to be reviewed again' },
    );
  }, 120_000);
});
