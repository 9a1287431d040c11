// Issue #38: the project page follows its knowledge over `project:{id}` (no polling). In Debian's Chromium
// against the real workbench in process, with a scripted model whose first knowledge layer is held: the page
// subscribes to the project's channel, shows the generation running, and shows READY when it ends.
import { createTempDir, createTempGitRepo, startMockModel, type TempDir } from '@keel/testkit';
import { createWorkbench, type Workbench } from '@keel/workbench';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import {
  call,
  dist,
  ensureBuilt,
  hasChromium,
  knowledgeReplies,
  launchBrowser,
  openPage,
  workbenchEnv,
} from './harness.ts';

describe.skipIf(!hasChromium)('the workbench SPA: a project followed live', () => {
  const dirs: TempDir[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  let browser: Browser | undefined;

  afterAll(async () => {
    await browser?.close();
    for (const close of closers) await close();
    for (const dir of dirs) await dir.remove();
  });

  test('the knowledge comes over project:{id}: running, then READY, with no reload', {
    timeout: 120_000,
  }, async () => {
    await ensureBuilt();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const [structure, ...rest] = knowledgeReplies;
    const model = await startMockModel({ script: [{ ...structure, until: held }, ...rest] });
    closers.push(() => model.close());
    const home = await createTempDir({ prefix: 'keel-wb-live-' });
    const runtimeHome = await createTempDir({ prefix: 'keel-wb-live-runtime-' });
    const repo = await createTempGitRepo({ files: { 'README.md': '# app\n' } });
    dirs.push(home, runtimeHome, repo);
    const workbench: Workbench = await createWorkbench({
      home: home.path,
      env: workbenchEnv(home, runtimeHome),
      spaDir: dist,
    });
    closers.unshift(() => workbench.close());
    const base = await workbench.listen(0);
    await call(base, 'PUT', '/api/settings', {
      model: 'mock-model',
      base_url: model.url,
      api_key: 'sk-test',
    });
    const project = await call<{ id: string }>(base, 'POST', '/api/projects', {
      name: 'Live',
      repositories: [{ path: repo.path, type: 'backend' }],
    });

    browser = await launchBrowser();
    const errors: string[] = [];
    const page = await openPage(browser, errors);
    const subscribed = new Promise<string>((resolve) => {
      page.on('websocket', (socket) =>
        socket.on('framesent', ({ payload }) => {
          if (String(payload).includes(`"project:${project.id}"`)) resolve(String(payload));
        }),
      );
    });
    await page.goto(`${base}/projects/${project.id}`);
    expect(JSON.parse(await subscribed)).toEqual({ type: 'subscribe', channel: `project:${project.id}` });
    const badge = page.locator('.page-head .badge').first();
    await expect.poll(() => badge.textContent()).toMatch(/initializing/i);

    release();
    await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toMatch(/ready/i);
    expect(errors).toEqual([]);
  });
});
