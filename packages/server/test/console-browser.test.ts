// keel-web's console (built from packages/workbench-web/src/console) in Debian's Chromium against the REAL
// server over a scripted model: a run started from the form streams its transcript (thinking, a tool call
// with its result, text) and is approved in place; the controls; an API error next to its field. Screenshots
// (light and dark, at laptop widths) go to test/screenshots/, which git ignores.
import { mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitForFileCommand } from '@keel/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, hasChromium, launchBrowser, openPage } from '../../workbench-web/test/harness.ts';
import { startServer } from './harness.ts';

const shots = join(import.meta.dirname, 'screenshots');

describe.skipIf(!hasChromium)('the runtime console (Chromium, real keel-web)', () => {
  let browser: Browser;
  beforeAll(async () => {
    await ensureBuilt();
    mkdirSync(shots, { recursive: true });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** A page at a laptop's size whose script errors fail the test that caused them. */
  async function page(errors: string[], width = 1366, height = 800): Promise<Page> {
    const opened = await openPage(browser, errors);
    await opened.setViewportSize({ width, height });
    return opened;
  }

  test('a run started from the form streams its transcript and is approved in place', async () => {
    await using s = await startServer(
      [
        {
          reasoning: 'Let me read the readme before writing anything.',
          toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }],
        },
        {
          when: { lastRole: 'tool' },
          text: 'The readme says Demo. Now the notes.',
          toolCalls: [
            { name: 'write_file', arguments: { path: 'notes.txt', content: 'approved\nby a person\n' } },
          ],
        },
        {
          when: { lastRole: 'tool' },
          chunkDelayMs: 40,
          text: 'Wrote **notes.txt**: the readme says Demo, and a person approved it.',
        },
      ],
      { config: { security: { require_approval: ['write_file'] } }, files: { 'README.md': '# Demo\n' } },
    );
    const errors: string[] = [];
    const p = await page(errors);
    try {
      await p.goto(`${s.base}/`);
      expect(new URL(p.url()).pathname).toBe('/console');
      const form = p.getByRole('form', { name: 'New run' });
      await expect.poll(() => form.getByLabel('Working directory').inputValue()).toBe(s.repo.path);
      await p.screenshot({ path: join(shots, 'console-empty.png') });

      await form.getByLabel('Prompt').fill('Read the readme, then write notes.txt');
      await form.getByLabel('Prompt').press('Control+Enter');
      await expect.poll(() => new URL(p.url()).searchParams.get('run')).toMatch(/^run_/);
      const transcript = p.getByTestId('transcript');
      await transcript.locator('.t-thinking', { hasText: 'Thinking' }).waitFor();
      await transcript.locator('.t-tool[data-tool="read_file"][data-state="ok"]').waitFor();
      await transcript.locator('.t-assistant', { hasText: 'The readme says Demo' }).waitFor();
      // The write waits for a person: in the transcript with its diff, and in "Waiting for you".
      const ask = transcript.getByRole('region', { name: 'Approval' });
      await ask.getByText('Allow write_file').waitFor();
      await ask.getByTestId('edit-diff').getByText('by a person').waitFor();
      await p.getByRole('region', { name: 'Waiting for you' }).getByText('Allow write_file').waitFor();
      await p.getByTestId('run-status').getByText('waiting').waitFor();
      await p.screenshot({ path: join(shots, 'console-approval.png') });

      // The answer streams: seen by an observer of every change, since on a busy machine the streaming
      // state can come and go between two polls of a locator.
      // (A string: the tests' TypeScript has no DOM library.)
      await p.evaluate(`(() => {
        window.sawStreaming = false;
        new MutationObserver(() => {
          if (document.querySelector('[data-testid="transcript"] .t-assistant.streaming')) window.sawStreaming = true;
        }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      })()`);
      await ask.getByRole('button', { name: 'Approve' }).click();
      await transcript.locator('.t-assistant .markdown strong', { hasText: 'notes.txt' }).waitFor();
      expect(await p.evaluate('window.sawStreaming')).toBe(true);
      await p.getByTestId('run-status').getByText('succeeded').waitFor();
      await transcript.getByTestId('run-done').waitFor();
      await transcript.locator('.t-tool[data-tool="write_file"][data-state="ok"]').waitFor();
      await ask
        .locator('[data-status="approved"], .approval-decision', { hasText: 'approved' })
        .first()
        .waitFor();
      expect(await ask.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      expect(await readFile(join(s.repo.path, 'notes.txt'), 'utf8')).toBe('approved\nby a person\n');
      await p.getByRole('region', { name: 'Waiting for you' }).getByText('Nothing waits for you.').waitFor();
      await p.screenshot({ path: join(shots, 'console-run-light.png') });
      await p.emulateMedia({ colorScheme: 'dark' });
      await p.screenshot({ path: join(shots, 'console-run-dark.png') });
      expect(errors).toEqual([]);
    } finally {
      await p.close();
    }
  }, 60_000);

  /** Starts a run from the form and waits until the page shows it. */
  async function startRun(p: Page, prompt: string): Promise<string> {
    const form = p.getByRole('form', { name: 'New run' });
    await form.getByLabel('Prompt').fill(prompt);
    await form.getByRole('button', { name: 'Start run' }).click();
    await p.locator('.run-title', { hasText: prompt }).waitFor();
    return new URL(p.url()).searchParams.get('run') ?? '';
  }

  test('pause, then resume at the step boundary; the timeline forks a new run from a checkpoint', async () => {
    await using s = await startServer([
      { toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('go') } }] },
      { when: { lastRole: 'tool' }, text: 'The command finished.' },
      { when: { lastRole: 'tool' }, text: 'The fork finished too.' },
    ]);
    const errors: string[] = [];
    const p = await page(errors, 1280, 800);
    try {
      await p.goto(`${s.base}/console`);
      const runId = await startRun(p, 'Run the slow command');
      const transcript = p.getByTestId('transcript');
      // A long step shows where it is and for how long.
      await transcript.locator('.t-tool[data-tool="exec_command"][data-state="running"]').waitFor();
      await transcript.locator('.run-progress', { hasText: 'Running exec_command' }).waitFor();
      const controls = p.getByRole('toolbar', { name: 'Run controls' });
      expect(await controls.getByRole('button', { name: 'Resume' }).isDisabled()).toBe(true);
      await controls.getByRole('button', { name: 'Pause' }).click();
      await controls.getByText('Pause requested').waitFor();
      await writeFile(join(s.repo.path, 'go'), '');
      await p.getByTestId('run-status').getByText('paused').waitFor();
      await transcript.locator('.t-tool[data-tool="exec_command"][data-state="ok"]').waitFor();
      await transcript.locator('.run-progress', { hasText: 'Paused' }).waitFor();
      await p.screenshot({ path: join(shots, 'console-paused.png') });

      await controls.getByRole('button', { name: 'Resume' }).click();
      await transcript.locator('.t-assistant', { hasText: 'The command finished.' }).waitFor();
      await p.getByTestId('run-status').getByText('succeeded').waitFor();

      await p.getByRole('tab', { name: 'Timeline' }).click();
      const timeline = p.getByRole('region', { name: 'Timeline' });
      await timeline.getByText('Model turns').waitFor();
      await timeline.locator('.tl-step', { hasText: 'exec_command' }).first().waitFor();
      await p.screenshot({ path: join(shots, 'console-timeline.png') });
      await timeline
        .getByRole('button', { name: /^Fork from checkpoint/ })
        .first()
        .click();
      await expect.poll(() => new URL(p.url()).searchParams.get('run')).not.toBe(runId);
      await p.getByTestId('run-facts').getByText(`forked from ${runId}`).waitFor();
      await p
        .getByTestId('transcript')
        .locator('.t-assistant', { hasText: 'The fork finished too.' })
        .waitFor();
      await p.getByTestId('run-status').getByText('succeeded').waitFor();
      // Back returns to the run it was forked from.
      await p.goBack();
      await p.locator(`[data-run-id="${runId}"].run-view`).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await p.close();
    }
  }, 60_000);

  test('cancel (asked twice), then retry: the second attempt finishes', async () => {
    await using s = await startServer([
      { toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('again') } }] },
      { when: { lastRole: 'tool' }, text: 'Done on the second attempt.' },
    ]);
    const errors: string[] = [];
    const p = await page(errors, 1024, 768);
    try {
      await p.goto(`${s.base}/console`);
      await startRun(p, 'Wait for a file');
      const transcript = p.getByTestId('transcript');
      await transcript.locator('.t-tool[data-tool="exec_command"][data-state="running"]').waitFor();
      const controls = p.getByRole('toolbar', { name: 'Run controls' });
      expect(await controls.getByRole('button', { name: 'Retry' }).isDisabled()).toBe(true);
      await controls.getByRole('button', { name: 'Cancel' }).click();
      // Asked in place; Escape would back out, "Keep it" too.
      await controls.getByRole('button', { name: 'Keep it' }).click();
      await controls.getByRole('button', { name: 'Cancel' }).click();
      await controls.getByRole('button', { name: 'Cancel run' }).click();
      await p.getByTestId('run-status').getByText('cancelled').waitFor();
      await transcript.locator('.t-meta', { hasText: 'Cancelled.' }).waitFor();
      await p.screenshot({ path: join(shots, 'console-cancelled-1024.png') });

      await writeFile(join(s.repo.path, 'again'), '');
      await controls.getByRole('button', { name: 'Retry' }).click();
      await transcript.locator('.t-assistant', { hasText: 'Done on the second attempt.' }).waitFor();
      await p.getByTestId('run-status').getByText('succeeded').waitFor();
      await p.getByTestId('run-facts').getByText('attempt 2').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await p.close();
    }
  }, 60_000);

  test("the API's errors show next to the field they name: a bad budget, a missing directory", async () => {
    await using s = await startServer([]);
    const errors: string[] = [];
    const p = await page(errors, 1280, 800);
    try {
      await p.goto(`${s.base}/console`);
      const form = p.getByRole('form', { name: 'New run' });
      await expect.poll(() => form.getByLabel('Working directory').inputValue()).toBe(s.repo.path);
      await form.getByLabel('Prompt').fill('Spend less than nothing');
      await form.getByText('Options').click();
      await form.getByLabel('Max cost').fill('-1');
      await form.getByLabel('Prompt').press('Control+Enter');
      // Under the row of budgets (too narrow for it), named by the field it is about.
      const cost = form.locator('[data-error-for="max_cost_usd"]');
      await cost.locator('.error-note', { hasText: 'max_cost_usd' }).waitFor();
      expect(await cost.locator('.error-note .error-code').textContent()).toMatch(/^INVALID_PARAMS/);
      const costInput = form.getByLabel('Max cost');
      expect(await costInput.getAttribute('aria-invalid')).toBe('true');
      const describedBy = await costInput.getAttribute('aria-describedby');
      expect(await cost.locator('.error-note').getAttribute('id')).toBe(describedBy);
      await p.screenshot({ path: join(shots, 'console-field-error.png') });

      await form.getByLabel('Max cost').fill('');
      await form.getByLabel('Working directory').fill('/no/such/dir');
      await form.getByRole('button', { name: 'Start run' }).click();
      await form
        .locator('[data-error-for="workdir"] .error-note', { hasText: 'is not a directory' })
        .waitFor();
      expect(await cost.locator('.error-note').count()).toBe(0);
      expect(s.model.chatRequests).toHaveLength(0);
      expect(errors).toEqual([]);
    } finally {
      await p.close();
    }
  }, 60_000);

  test('a question is answered in place; a message sent meanwhile reaches the next turn', async () => {
    await using s = await startServer([
      { toolCalls: [{ name: 'question', arguments: { text: 'Which colour?', options: ['red', 'blue'] } }] },
      { when: { lastRole: 'user' }, text: 'Blue it is, and dark.' },
      { when: { lastRole: 'tool' }, text: 'Blue it is, and dark.' },
    ]);
    const errors: string[] = [];
    const p = await page(errors, 1366, 800);
    try {
      await p.goto(`${s.base}/console`);
      await startRun(p, 'Pick a colour');
      const transcript = p.getByTestId('transcript');
      const question = transcript.getByRole('region', { name: 'Question' });
      await question.getByText('Which colour?').waitFor();
      await p.getByTestId('run-status').getByText('waiting').waitFor();
      const message = p.getByLabel('Message the agent');
      await message.fill('Prefer dark shades.');
      await message.press('Enter');
      await expect.poll(() => message.inputValue()).toBe('');
      await question.getByRole('button', { name: 'blue' }).click();
      await transcript.locator('.t-user', { hasText: 'Prefer dark shades.' }).waitFor();
      await transcript.locator('.t-assistant', { hasText: 'Blue it is, and dark.' }).waitFor();
      await p.getByTestId('run-status').getByText('succeeded').waitFor();
      await question.locator('.approval-decision', { hasText: 'blue' }).waitFor();

      // The theme: dark by choice, kept across a reload.
      await p.getByLabel('Theme').selectOption('dark');
      expect(await p.locator('html').getAttribute('data-theme')).toBe('dark');
      await p.reload();
      await p.getByTestId('transcript').locator('.t-assistant', { hasText: 'Blue it is' }).waitFor();
      expect(await p.locator('html').getAttribute('data-theme')).toBe('dark');
      await p.screenshot({ path: join(shots, 'console-question-dark.png') });
      expect(errors).toEqual([]);
    } finally {
      await p.close();
    }
  }, 60_000);

  test('a workflow run started over the API opens by its link; its review artifacts open in place', async () => {
    await using s = await startServer([
      { when: { lastMessageIncludes: 'Write the report' }, text: 'draft' },
      { when: { lastMessageIncludes: 'Improve' }, text: 'improved' },
      { when: { lastMessageIncludes: 'Write the report' }, text: 'final report' },
    ]);
    const workflow = {
      root: {
        id: 'quality',
        kind: 'gate',
        body: { id: 'writer', kind: 'agent', prompt: 'Write the report' },
        check: { output_of: 'writer', contains: 'final' },
        repair: { id: 'improver', kind: 'agent', prompt: 'Improve: {{nodes.writer.output}}' },
        max_repairs: 1,
      },
    };
    const started = await s.api('POST', '/runtime/runs', {
      prompt: 'Report, reviewed',
      workdir: s.repo.path,
      workflow,
    });
    expect(started.status).toBe(202);
    await s.until(started.body.id, (run) => run.status === 'succeeded');
    const errors: string[] = [];
    const p = await page(errors, 1280, 800);
    try {
      await p.goto(`${s.base}/console?run=${started.body.id}`);
      await p.locator('.run-title', { hasText: 'Report, reviewed' }).waitFor();
      await p.getByTestId('transcript').locator('.t-assistant', { hasText: 'final report' }).waitFor();
      await p.getByRole('tab', { name: 'Timeline' }).press('ArrowRight');
      const timeline = p.getByRole('region', { name: 'Timeline' });
      await timeline.locator('.tl-step', { hasText: 'Quality gate' }).first().waitFor();
      const reviews = timeline.locator('.tl-artifact');
      await expect.poll(() => reviews.count()).toBe(2);
      await reviews.first().getByRole('button', { name: 'View' }).click();
      await reviews.first().locator('pre', { hasText: '"passed": false' }).waitFor();
      await reviews.nth(1).getByRole('button', { name: 'View' }).click();
      await reviews.nth(1).locator('pre', { hasText: '"passed": true' }).waitFor();
      await p.screenshot({ path: join(shots, 'console-artifacts.png') });
      expect(errors).toEqual([]);
    } finally {
      await p.close();
    }
  }, 60_000);
});
