// Issue #37 in the SPA (Debian's Chromium against the real workbench in process, the bubblewrap sandbox):
// the project's settings edit each repository's setup and preview commands and turn run_setup on (saved,
// reloaded, cleared); a task's stage 01 shows its setup step's detail and output (open when it failed); a
// repository without a preview command says where to set one; the preview panel starts a real HTTP server
// from the task's workspace, links to it, shows its log live (and after a reload), and stops it.
// Screenshots in test/screenshots/, named `setup-preview-*`.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { eventually } from '@keel/testkit';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type BrowserWorld, call, hasChromium, shots, startBrowserWorld } from './harness.ts';

interface Repository {
  setup?: { command: string; timeout_ms: number } | null;
  preview?: { command: string } | null;
}
interface Project {
  run_setup: boolean;
  repositories: Repository[];
}
interface Task {
  id: string;
  init: { status: string; steps: { name: string; status: string; detail?: string; output?: string }[] };
}

// A tiny app: its setup prints what it installs; its server answers on $PORT and says where it listens.
const files = {
  'package.json': JSON.stringify({ name: 'web', private: true }),
  'setup.js': "console.log('installing the dependencies');\nconsole.log('added 3 packages in 0.1s');\n",
  'broken-setup.js': "console.error('npm ERR! the lockfile is missing');\nprocess.exit(1);\n",
  'server.js': `require('node:http')
  .createServer((request, response) => response.end('hello preview'))
  .listen(Number(process.env.PORT), process.env.HOST, () =>
    console.log('preview listening on ' + process.env.HOST + ':' + process.env.PORT),
  );
`,
};

describe.skipIf(!hasChromium || !existsSync('/usr/bin/bwrap'))(
  'the workbench SPA: setup and preview commands, the setup step, the preview panel',
  () => {
    let world: BrowserWorld;
    let page: Page;
    let base = '';
    let repository = '';

    beforeAll(async () => {
      world = await startBrowserWorld({ prefix: 'setup-preview', files });
      ({ page, base } = world);
      repository = basename(world.repo.path);
    }, 120_000);

    afterEach(() => {
      if (world.pageErrors.length > 0) console.error(`errors in the page:\n${world.pageErrors.join('\n')}`);
      expect(world.pageErrors).toEqual([]);
    });

    afterAll(async () => {
      await world?.close();
    });

    const getProject = () => call<Project>(base, 'GET', `/api/projects/${world.projectId}`);

    test('settings: a setup and a preview command and run_setup are saved, shown after a reload, and cleared', async () => {
      // Nothing to detect in this repository: no lockfile, no dev script.
      expect((await getProject()).repositories[0]).toMatchObject({ setup: null, preview: null });
      await page.goto(`${base}/projects/${world.projectId}`);
      const form = page.getByRole('form', { name: 'Checks' });
      const setup = form.locator(`input[name="setup.${repository}"]`);
      const preview = form.locator(`input[name="preview.${repository}"]`);
      const runSetup = form.getByRole('checkbox', { name: 'Run setup when a task is initialised' });
      const save = form.getByRole('button', { name: 'Save checks, setup and preview' });
      const saved = form.getByRole('status').filter({ hasText: 'Saved.' });
      expect(await setup.inputValue()).toBe('');
      expect(await runSetup.isChecked()).toBe(false);
      const warning = await form.getByRole('note').textContent();
      expect(warning).toContain(
        "Runs each repository's setup command (e.g. npm ci) when a task is initialised",
      );
      expect(warning).toContain('turn this on only for repositories you trust');

      await setup.fill('node setup.js');
      await preview.fill('node server.js');
      await runSetup.check();
      await save.click();
      await saved.waitFor();
      await page.reload();
      await expect.poll(() => setup.inputValue()).toBe('node setup.js');
      expect(await preview.inputValue()).toBe('node server.js');
      expect(await runSetup.isChecked()).toBe(true);
      await page.screenshot({ path: join(shots, 'setup-preview-settings.png'), fullPage: true });
      const stored = await getProject();
      expect(stored.run_setup).toBe(true);
      expect(stored.repositories[0]).toMatchObject({
        setup: { command: 'node setup.js', timeout_ms: 600_000 },
        preview: { command: 'node server.js' },
      });

      // Cleared, each is none; the setup is given again (the next test's task installs with it).
      await setup.fill('');
      await preview.fill('');
      await save.click();
      await saved.waitFor();
      await expect
        .poll(async () => (await getProject()).repositories[0])
        .toMatchObject({
          setup: null,
          preview: null,
        });
      await setup.fill('node setup.js');
      await save.click();
      await expect
        .poll(async () => (await getProject()).repositories[0]?.setup?.command)
        .toBe('node setup.js');
      expect((await getProject()).run_setup).toBe(true);
    });

    test('task: the setup step shows its output; the preview starts from the page, answers on its link, logs live and stops', async () => {
      const created = await call<Task>(base, 'POST', '/api/tasks', {
        project_id: world.projectId,
        description: 'Look at the app',
      });
      await eventually(
        async () => (await call<Task>(base, 'GET', `/api/tasks/${created.id}`)).init.status === 'done',
        { timeoutMs: 60_000, what: 'the task initialization' },
      );
      await page.goto(`${base}/tasks/${created.id}`);
      await expect.poll(() => page.locator('#stage-title').textContent()).toBe('01 · Initialization');

      // Stage 01: the setup step ran the command; its output is behind a toggle, closed as it succeeded.
      const step = page.locator('.init-steps li', { hasText: `setup:${repository}` });
      await expect.poll(() => step.textContent()).toContain('node setup.js succeeded');
      const output = step.locator('details.step-output');
      expect(await output.getAttribute('open')).toBeNull();
      expect(await step.locator('code', { hasText: 'node setup.js' }).count()).toBe(1);
      await output.locator('summary').click();
      expect(await output.locator('pre').textContent()).toContain('added 3 packages');
      await page.screenshot({ path: join(shots, 'setup-preview-init.png'), fullPage: true });

      // No preview command yet: the row says where to set one, and the link goes there.
      const panel = page.getByRole('region', { name: 'Preview', exact: true });
      const hint = panel.locator(`.preview-row[data-repository="${repository}"]`);
      await expect.poll(() => hint.textContent()).toContain('No preview command');
      await hint.getByRole('link', { name: "project's settings" }).click();
      const preview = page.locator(`input[name="preview.${repository}"]`);
      await preview.fill('node server.js');
      await page.getByRole('button', { name: 'Save checks, setup and preview' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await page.goBack();

      const row = panel.getByTestId('preview-row');
      await expect.poll(() => row.getAttribute('data-state')).toBe('not-started');
      await row.getByRole('button', { name: 'Start', exact: true }).click();
      await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('running');
      const link = row.getByRole('link');
      const url = (await link.getAttribute('href')) ?? '';
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await link.textContent()).toBe(url);
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toBe('noopener');
      expect(await (await fetch(url)).text()).toBe('hello preview');
      const log = row.getByRole('log', { name: `${repository} preview log` });
      await expect
        .poll(() => log.textContent())
        .toContain(`preview listening on 127.0.0.1:${new URL(url).port}`);
      await page.screenshot({ path: join(shots, 'setup-preview-running.png'), fullPage: true });
      // Reloaded, the page reads the log it missed: the line is there again, once.
      await page.reload();
      await expect.poll(() => row.getAttribute('data-state')).toBe('running');
      await expect.poll(async () => (await log.textContent())?.split('preview listening').length).toBe(2);

      await row.getByRole('button', { name: 'Stop' }).click();
      await expect.poll(() => row.getAttribute('data-state'), { timeout: 15_000 }).toBe('stopped');
      expect(await row.getByRole('link').count()).toBe(0);
      await row.getByRole('button', { name: 'Start again' }).waitFor();
      const { previews } = await call<{ previews: { state: string }[] }>(
        base,
        'GET',
        `/api/tasks/${created.id}/previews`,
      );
      expect(previews).toMatchObject([{ state: 'stopped' }]);
      await expect(fetch(url)).rejects.toThrow();
      await page.screenshot({ path: join(shots, 'setup-preview-stopped.png'), fullPage: true });
    }, 180_000);

    test('setup off when the task was made: turned on, "Run setup again" in stage 01 runs it in that task', async () => {
      await call(base, 'PUT', `/api/projects/${world.projectId}`, {
        run_setup: false,
        setup: { [repository]: { command: 'node setup.js' } },
      });
      const created = await call<Task>(base, 'POST', '/api/tasks', {
        project_id: world.projectId,
        description: 'Set up later',
      });
      await eventually(
        async () => (await call<Task>(base, 'GET', `/api/tasks/${created.id}`)).init.status === 'done',
        { timeoutMs: 60_000, what: 'the task initialization' },
      );
      await page.goto(`${base}/tasks/${created.id}`);
      const step = page.locator('.init-steps li', { hasText: `setup:${repository}` });
      await expect.poll(() => step.textContent()).toContain('not run: setup is off for this project');
      await call(base, 'PUT', `/api/projects/${world.projectId}`, { run_setup: true });
      const [started] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith(`/api/tasks/${created.id}/setup`)),
        page.getByRole('button', { name: 'Run setup again' }).click(),
      ]);
      expect(started.status()).toBe(202);
      await expect.poll(() => step.textContent(), { timeout: 60_000 }).toContain('node setup.js succeeded');
      await step.locator('details.step-output summary').click();
      expect(await step.locator('details.step-output pre').textContent()).toContain('added 3 packages');
      await page.screenshot({ path: join(shots, 'setup-preview-setup-again.png'), fullPage: true });
    }, 120_000);

    test('a setup that fails fails the initialisation, its output open', async () => {
      await call(base, 'PUT', `/api/projects/${world.projectId}`, {
        setup: { [repository]: { command: 'node broken-setup.js' } },
      });
      const created = await call<Task>(base, 'POST', '/api/tasks', {
        project_id: world.projectId,
        description: 'Install it wrong',
      });
      await eventually(
        async () => (await call<Task>(base, 'GET', `/api/tasks/${created.id}`)).init.status === 'failed',
        { timeoutMs: 60_000, what: 'the task initialization to fail' },
      );
      await page.goto(`${base}/tasks/${created.id}`);
      const step = page.locator('.init-steps li', { hasText: `setup:${repository}` });
      await step.locator('.badge', { hasText: 'failed' }).waitFor();
      expect(await step.locator('.error-text').textContent()).toContain('setup node broken-setup.js failed');
      const output = step.locator('details.step-output');
      expect(await output.getAttribute('open')).not.toBeNull();
      expect(await output.locator('pre').textContent()).toContain('npm ERR! the lockfile is missing');
      await page.screenshot({ path: join(shots, 'setup-preview-setup-failed.png'), fullPage: true });
      await call(base, 'PUT', `/api/projects/${world.projectId}`, {
        setup: { [repository]: { command: 'node setup.js' } },
      });
    }, 120_000);
  },
);
