// A live session survives a page reload and a dropped WebSocket: in Debian's Chromium, against the real
// workbench in process and a scripted model that streams a long answer slowly, the transcript ends with
// every word of the answer exactly once.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTempDir, type MockModel, startMockModel, type TempDir } from '@keel/testkit';
import { createWorkbench, type Workbench } from '@keel/workbench';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  call,
  dist,
  ensureBuilt,
  hasChromium,
  launchBrowser,
  openPage,
  shots,
  workbenchEnv,
} from './harness.ts';

/** An answer of numbered words, so a missing or doubled piece shows. */
const answer = (tag: string) => Array.from({ length: 40 }, (_, i) => `${tag}${i + 1}`).join(' ');

describe.skipIf(!hasChromium)('a live session in the browser', () => {
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;
  let model: MockModel;
  let base = '';
  let home: TempDir;
  let runtimeHome: TempDir;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    mkdirSync(shots, { recursive: true });
    home = await createTempDir({ prefix: 'keel-wb-live-' });
    runtimeHome = await createTempDir({ prefix: 'keel-wb-live-runtime-' });
    model = await startMockModel({
      chunkSize: 4,
      script: [
        { when: { lastMessageIncludes: 'first question' }, chunkDelayMs: 40, text: answer('alpha') },
        { when: { lastMessageIncludes: 'second question' }, chunkDelayMs: 40, text: answer('beta') },
      ],
    });
    workbench = await createWorkbench({
      home: home.path,
      env: workbenchEnv(home, runtimeHome),
      spaDir: dist,
    });
    base = await workbench.listen(0);
    await call(base, 'PUT', '/api/settings', {
      model: 'mock-model',
      base_url: model.url,
      api_key: 'sk-live',
    });
    browser = await launchBrowser();
    page = await openPage(browser, pageErrors);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await workbench?.close();
    await model?.close();
    await home?.remove();
    await runtimeHome?.remove();
  });

  /** The transcript's text, and how often each numbered word of `tag` appears in it. */
  async function counts(tag: string): Promise<number[]> {
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the rendered text with blocks on their own lines; textContent would run the words into the labels.
    const text = await page.getByTestId('session-view').innerText();
    return Array.from({ length: 40 }, (_, i) => text.split(new RegExp(`\\b${tag}${i + 1}\\b`)).length - 1);
  }

  test('a reload in the middle of a streamed answer, then a dropped socket: every word exactly once', async () => {
    const conversation = await call<{ id: string }>(base, 'POST', '/api/conversations', { title: 'Live' });
    await page.goto(`${base}/conversations/${conversation.id}`);
    const box = page.getByLabel('Message');
    await box.waitFor();

    await box.fill('first question');
    await box.press('Enter');
    // Part of the answer is on the page, not all of it: reload now.
    await page.getByText('alpha5', { exact: false }).waitFor();
    expect((await counts('alpha'))[39]).toBe(0);
    await page.reload();
    await expect.poll(() => counts('alpha'), { timeout: 30_000 }).toEqual(Array(40).fill(1));
    await page.screenshot({ path: join(shots, 'live-after-reload.png'), fullPage: true });

    // As a user would: the box takes the next message once the answer has ended (while the session still
    // runs, Enter does nothing). The last word can show before the session's end reaches the page.
    await page.locator('.session-head .badge', { hasText: 'succeeded' }).waitFor();
    await box.fill('second question');
    await box.press('Enter');
    await page.getByText('beta5', { exact: false }).waitFor();
    // The server drops every WebSocket mid-answer; the page reconnects and resumes from its last seq.
    for (const client of workbench.app.websocketServer.clients) client.terminate();
    await expect.poll(() => counts('beta'), { timeout: 30_000 }).toEqual(Array(40).fill(1));
    expect(await counts('alpha')).toEqual(Array(40).fill(1));
    await page.screenshot({ path: join(shots, 'live-after-drop.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
