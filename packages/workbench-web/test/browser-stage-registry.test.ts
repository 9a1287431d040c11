// Issue #24: a workbench stage is a module. A sixth stage registered in the workbench's registry (defined
// only here) shows in the task page's stepper, which draws as many steps as GET /api/flow has stages, in one
// row, with no SPA file edited. Debian's Chromium against the real workbench in process.
import { join } from 'node:path';
import { createTempDir, createTempGitRepo } from '@keel/testkit';
import { createWorkbench, defaultStages } from '@keel/workbench';
import { describe, expect, test } from 'vitest';
import { securityReviewStage } from '../../workbench/test/tasks/security-review-stage.ts';
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

describe.skipIf(!hasChromium)('the stepper follows the registered stages', () => {
  test('a sixth stage registered in the workbench is a sixth step of the stepper', {
    timeout: 120_000,
  }, async () => {
    await ensureBuilt();
    const home = await createTempDir({ prefix: 'keel-wb-stage6-' });
    const runtimeHome = await createTempDir({ prefix: 'keel-wb-stage6-runtime-' });
    const repo = await createTempGitRepo({ files: { 'README.md': '# App\n' } });
    const workbench = await createWorkbench({
      home: home.path,
      env: workbenchEnv(home, runtimeHome),
      spaDir: dist,
      stages: [...defaultStages, securityReviewStage],
    });
    const browser = await launchBrowser();
    try {
      const base = await workbench.listen(0);
      const project = await call<{ id: string }>(base, 'POST', '/api/projects', {
        name: 'Six stages',
        repositories: [{ path: repo.path, type: 'custom' }],
      });
      const task = await call<{ id: string }>(base, 'POST', '/api/tasks', {
        project_id: project.id,
        description: 'Check the change for secrets',
      });
      const errors: string[] = [];
      const page = await openPage(browser, errors);
      await page.goto(`${base}/tasks/${task.id}`);
      const steps = page.locator('.stepper button');
      await page.locator('.stepper button', { hasText: 'Security review' }).waitFor({ timeout: 20_000 });
      expect(await steps.count()).toBe(6);
      expect(await steps.allInnerTexts()).toEqual([
        '01\nInitialization',
        '02\nPlan',
        '03\nTodos',
        '04\nCoding',
        '05\nReview',
        '06\nSecurity review',
      ]);
      // The task is in CREATED: its current step is 01, and the new one is ahead of it.
      await page.locator('.stepper [aria-current=step]', { hasText: 'Initialization' }).waitFor();
      expect(await steps.last().isDisabled()).toBe(true);
      // One row of six: the grid takes a column per stage of the flow. Measured in one snapshot of the
      // layout: the header above may still grow (a late part of the page) between separate measurements.
      const tops = await steps.evaluateAll((buttons) =>
        // Typed by hand: the tests' TypeScript configuration has no DOM library.
        (buttons as unknown as { getBoundingClientRect(): { top: number } }[]).map((button) =>
          Math.round(button.getBoundingClientRect().top),
        ),
      );
      expect(new Set(tops).size).toBe(1);
      await page.screenshot({ path: join(shots, 'stepper-six-stages.png'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await browser.close().catch(() => undefined);
      await workbench.close();
      for (const dir of [home, runtimeHome, repo]) await dir.remove();
    }
  });
});
