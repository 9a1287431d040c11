// Issue #38, point 1, in the page: a refinement typed while the plan's turn runs waits in the queue and then
// runs as a request to revise the plan (not as a bare chat message), and an answer that is not a plan (a chat
// reply) does not replace plan.md: the page keeps the plan and says why. In Debian's Chromium against the real
// workbench in process. Screenshot `plan-chat-kept.png`.
import { join } from 'node:path';
import { eventually } from '@keel/testkit';
import { afterAll, describe, expect, test } from 'vitest';
import { type BrowserWorld, call, hasChromium, shots, startBrowserWorld, taskSteps } from './harness.ts';

interface Task {
  id: string;
  plan: string | null;
  init: { status: string };
}

describe.skipIf(!hasChromium)('the workbench SPA: chat in the plan stage', () => {
  let world: BrowserWorld | undefined;
  afterAll(async () => {
    await world?.close();
  });

  test('a refinement queued behind the plan turn revises the plan; a chat reply keeps plan.md', {
    timeout: 120_000,
  }, async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    world = await startBrowserWorld({
      prefix: 'plan-chat',
      script: [
        { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nGreet.', until: held },
        {
          when: { lastMessageIncludes: 'Add a risks section' },
          text: '# Plan v2\n\nGreet.\n\n## Risks\n\nNone.',
        },
        { when: { lastMessageIncludes: 'Thanks' }, text: 'You are welcome!' },
      ],
    });
    const { page, base, model } = world;
    const steps = taskSteps(world);
    const getTask = (id: string) => call<Task>(base, 'GET', `/api/tasks/${id}`);
    const task = await steps.initialized('Greet');
    await call(base, 'POST', `/api/tasks/${task.id}/confirm-init`);
    await page.goto(`${base}/tasks/${task.id}`);
    const box = page.getByLabel('Refine the plan');
    // While the first draft's turn is held: the message waits in the queue.
    await page.getByTestId('session-view').getByRole('button', { name: /^Stop/ }).waitFor();
    await box.fill('Add a risks section');
    await box.press('Enter');
    await page.getByText('Add a risks section').first().waitFor();
    release();
    await page.locator('.doc h1', { hasText: 'Plan v2' }).waitFor({ timeout: 30_000 });
    expect((await getTask(task.id)).plan).toContain('## Risks');
    // It ran framed as a revision of the plan, not as the bare words.
    const asked = model.chatRequests.find((request) =>
      JSON.stringify(request.messages?.at(-1)).includes('Add a risks section'),
    );
    expect(JSON.stringify(asked?.messages?.at(-1))).toContain('Answer with the complete revised plan');

    // A chat reply is not a plan: plan.md stays, and the page says why.
    await eventually(
      async () => !(await page.getByTestId('session-view').getByRole('button', { name: /^Stop/ }).count()),
      {
        what: 'the plan turn to end',
      },
    );
    await box.fill('Thanks');
    await box.press('Enter');
    const kept = page.getByTestId('session-view').getByText('plan.md was kept as it was');
    await kept.waitFor({ timeout: 30_000 });
    expect((await getTask(task.id)).plan).toContain('# Plan v2');
    await page.locator('.doc h1', { hasText: 'Plan v2' }).waitFor();
    await page.screenshot({ path: join(shots, 'plan-chat-kept.png'), fullPage: true });
  });
});
