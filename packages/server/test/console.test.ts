import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

const executablePath = '/usr/bin/chromium';
const hasChromium = existsSync(executablePath);

// Debian's Chromium, installed by .ci/run; a downloaded browser does not work on these machines.
describe.skipIf(!hasChromium)('the browser console (Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  test('a person starts a run, watches it answer, and approves a write from the page', async () => {
    await using s = await startServer(
      [
        { text: 'Hello from the console.' },
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'approved\n' } }] },
        { when: { lastRole: 'tool' }, text: 'Wrote notes.txt.' },
      ],
      { config: { security: { require_approval: ['write_file'] } } },
    );
    const page = await browser.newPage();
    try {
      await page.goto(`${s.base}/`);
      await expect.poll(() => page.inputValue('#workdir')).toBe(s.repo.path);

      await page.fill('#prompt', 'say hello');
      await page.click('#start-form button[type=submit]');
      await page.locator('#transcript .text', { hasText: 'Hello from the console.' }).waitFor();
      await page.locator('#run-status', { hasText: 'succeeded' }).waitFor();
      await page.locator('#runs li', { hasText: 'say hello' }).waitFor();

      await page.fill('#prompt', 'write notes');
      await page.click('#start-form button[type=submit]');
      const ask = page.locator('#transcript .ask', { hasText: 'Allow write_file' });
      await ask.waitFor();
      await page.locator('#approvals li', { hasText: 'Allow write_file' }).waitFor();
      await ask.getByRole('button', { name: 'Approve' }).click();
      await page.locator('#transcript .text', { hasText: 'Wrote notes.txt.' }).waitFor();
      await page.locator('#run-status', { hasText: 'succeeded' }).waitFor();
      await ask.locator('text=(approved)').waitFor();
      expect(await ask.getByRole('button').count()).toBe(0);
      await page.locator('#runs li', { hasText: 'write notes' }).locator('text=succeeded').waitFor();
      expect(await readFile(join(s.repo.path, 'notes.txt'), 'utf8')).toBe('approved\n');
      await page.screenshot({
        path: process.env.KEEL_CONSOLE_SHOT ?? join(s.home, 'console.png'),
        fullPage: true,
      });
    } finally {
      await page.close();
    }
  }, 60_000);

  test('with an API key the page asks for it, then works; a wrong key keeps asking', async () => {
    await using s = await startServer([{ text: 'Keyed.' }], { apiKey: 'sekret' });
    const page = await browser.newPage();
    try {
      await page.goto(`${s.base}/console`);
      await page.locator('#key-form').waitFor({ state: 'visible' });
      await page.fill('#key-input', 'wrong');
      await page.click('#key-form button');
      await page.locator('#key-form').waitFor({ state: 'visible' });
      await page.fill('#key-input', 'sekret');
      await page.click('#key-form button');
      await expect.poll(() => page.inputValue('#workdir')).toBe(s.repo.path);
      await page.fill('#prompt', 'hi');
      await page.click('#start-form button[type=submit]');
      await page.locator('#transcript .text', { hasText: 'Keyed.' }).waitFor();
      // A bad request shows the API's message on the page.
      await page.fill('#prompt', 'elsewhere');
      await page.fill('#workdir', '/no/such/dir');
      await page.click('#start-form button[type=submit]');
      await page.locator('#start-error', { hasText: 'is not a directory' }).waitFor();
    } finally {
      await page.close();
    }
  }, 60_000);
});
