// Issue #38, point 7: the page knows when the service is gone. In Debian's Chromium against the real
// workbench in process: the service stops while a page is open and idle; a banner says so (no click
// needed), and when a service is back on the same port the banner says "Reconnected" and the page shows
// what changed meanwhile without a reload. Screenshots `connection-*`.
import { join } from 'node:path';
import { createTempDir, createTempGitRepo, type TempDir } from '@keel/testkit';
import { createWorkbench, type Workbench } from '@keel/workbench';
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
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

describe.skipIf(!hasChromium)('the workbench SPA: the connection to the service', () => {
  const dirs: TempDir[] = [];
  let workbench: Workbench | undefined;
  let browser: Browser | undefined;
  const errors: string[] = [];

  afterAll(async () => {
    await browser?.close();
    await workbench?.close();
    for (const dir of dirs) await dir.remove();
  });

  async function start(home: TempDir, runtimeHome: TempDir, port = 0) {
    workbench = await createWorkbench({
      home: home.path,
      env: workbenchEnv(home, runtimeHome),
      spaDir: dist,
    });
    return workbench.listen(port);
  }

  test('the service stops: a banner says so by itself; it comes back: the page resyncs', {
    timeout: 120_000,
  }, async () => {
    await ensureBuilt();
    const home = await createTempDir({ prefix: 'keel-wb-connection-' });
    const runtimeHome = await createTempDir({ prefix: 'keel-wb-connection-runtime-' });
    const repo = await createTempGitRepo({ files: { 'README.md': '# app\n' } });
    dirs.push(home, runtimeHome, repo);
    const base = await start(home, runtimeHome);
    const port = Number(new URL(base).port);
    browser = await launchBrowser();
    const page: Page = await openPage(browser, errors);
    await page.goto(`${base}/projects`);
    await page.getByRole('heading', { name: 'Projects', exact: true, level: 1 }).waitFor();
    const banner = page.getByTestId('connection-banner');
    expect(await banner.count()).toBe(0);

    await workbench?.close();
    // Nobody clicks: the page finds out by itself.
    await banner.filter({ hasText: 'The workbench service does not answer' }).waitFor({ timeout: 30_000 });
    expect(await banner.getAttribute('role')).toBe('alert');
    expect(await banner.textContent()).toContain('tries again by itself');
    // Only one outage message: the settings check's banner does not repeat it.
    expect(await page.getByText('does not answer').count()).toBe(1);
    await page.screenshot({ path: join(shots, 'connection-lost-1280.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(shots, 'connection-lost-390.png') });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Back on the same port, with a project the page has not seen yet.
    await start(home, runtimeHome, port);
    await call(base, 'POST', '/api/projects', {
      name: 'Made while the page was away',
      repositories: [{ path: repo.path, type: 'backend' }],
    });
    await banner.filter({ hasText: 'Reconnected' }).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Made while the page was away' }).waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(shots, 'connection-back-1280.png') });
    // The note goes by itself.
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    expect(errors.filter((error) => !error.includes('ERR_CONNECTION_REFUSED'))).toEqual([]);
  });
});
