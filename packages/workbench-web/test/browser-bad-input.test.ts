// Bad input in every form of the workbench SPA, in Debian's Chromium against the REAL workbench service in
// process: the service refuses it, its error (code and message) shows next to the field that caused it (the
// field is aria-invalid and described by the note), nothing is saved, and the corrected form submits.
// Screenshots go to test/screenshots/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTempDir, createTempGitRepo, type TempDir, type TempGitRepo } from '@keel/testkit';
import { createWorkbench, type Workbench } from '@keel/workbench';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
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

interface Settings {
  model: string | null;
  base_url: string | null;
  api_key_set: boolean;
  github_token_set: boolean;
  github_api_url: string;
  default_runner: string;
  runner_configs: { id: string }[];
  mcp_servers: { name: string; command: string }[];
}

describe.skipIf(!hasChromium)(
  'the workbench SPA: bad input shows the service error next to its field',
  () => {
    let browser: Browser;
    let page: Page;
    let workbench: Workbench;
    let base = '';
    let home: TempDir;
    let runtimeHome: TempDir;
    let repo: TempGitRepo;
    let otherRepo: TempGitRepo;
    let projectId = '';
    const pageErrors: string[] = [];

    beforeAll(async () => {
      await ensureBuilt();
      mkdirSync(shots, { recursive: true });
      home = await createTempDir({ prefix: 'keel-wb-bad-' });
      runtimeHome = await createTempDir({ prefix: 'keel-wb-bad-runtime-' });
      repo = await createTempGitRepo({ files: { 'README.md': '# Greeter\n' } });
      otherRepo = await createTempGitRepo({ files: { 'README.md': '# Other\n' } });
      workbench = await createWorkbench({
        home: home.path,
        env: workbenchEnv(home, runtimeHome),
        spaDir: dist,
      });
      base = await workbench.listen(0);
      const project = await call<{ id: string }>(base, 'POST', '/api/projects', {
        name: 'Greeter',
        repositories: [{ path: repo.path, type: 'backend' }],
      });
      projectId = project.id;
      browser = await launchBrowser();
      page = await openPage(browser, pageErrors);
    }, 120_000);

    afterEach(() => {
      if (pageErrors.length > 0) console.error(`errors in the page:\n${pageErrors.join('\n')}`);
      expect(pageErrors).toEqual([]);
    });

    afterAll(async () => {
      await page?.close();
      await browser?.close();
      await workbench?.close();
      for (const dir of [home, runtimeHome, repo, otherRepo]) await dir?.remove();
    });

    const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    const settings = () => call<Settings>(base, 'GET', '/api/settings');

    /**
     * `input` is marked invalid and described by an alert beside it (in the same field, row or message box)
     * that holds the service's code and `text` (its message, naming what is wrong).
     */
    async function expectErrorBeside(input: Locator, code: string, text: string): Promise<void> {
      await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
      const noteId = await input.getAttribute('aria-describedby');
      expect(noteId).toBeTruthy();
      const note = page.locator(`[id="${noteId}"]`);
      expect(await note.getAttribute('role')).toBe('alert');
      const noteText = (await note.textContent()) ?? '';
      expect(noteText).toContain(code);
      expect(noteText).toContain(text);
      // One error component (issue #38, point 11): the sentence in front, the code and the service's own
      // words folded under Details, not beside the sentence.
      expect(await note.locator('details:not([open]) .error-code').textContent()).toBe(code);
      expect(await note.locator('.error-words').textContent()).not.toContain(code);
      // Beside the field: inside the field's own container, not at the bottom of the form.
      expect(await container(input).locator(`[id="${noteId}"]`).count()).toBe(1);
    }

    /** The nearest field, repository row or message box around `input`. */
    const container = (input: Locator) =>
      input.locator(
        'xpath=ancestor::*[contains(concat(" ", @class, " "), " field ") or contains(concat(" ", @class, " "), " repo-row ") or contains(concat(" ", @class, " "), " message-box ")][1]',
      );

    /** The field is valid again (after the corrected input was accepted). */
    async function expectValid(input: Locator): Promise<void> {
      await expect.poll(() => input.getAttribute('aria-invalid')).toBeNull();
    }

    /** Turns off the browser's own checks (`required`, `type=url`) so the SERVICE answers the bad input. */
    const skipBrowserChecks = (form: Locator) =>
      form.evaluate((element) => {
        // The test's TypeScript has no DOM types: the form element, by what it is used for.
        (element as unknown as { noValidate: boolean }).noValidate = true;
      });

    test('settings: model, base URL, API key, GitHub token and GitHub API URL', async () => {
      await page.goto(`${base}/settings`);
      const form = page.getByRole('form', { name: 'Settings' });
      await form.waitFor();
      await skipBrowserChecks(form);
      const save = async () => {
        await form.getByRole('button', { name: 'Save settings' }).click();
        await expect.poll(() => form.getByRole('button', { name: 'Save settings' }).isEnabled()).toBe(true);
      };
      const saved = () => form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

      const model = form.locator('input[name=model]');
      await model.fill('m'.repeat(201));
      await save();
      await expectErrorBeside(model, 'INVALID_PARAMS', 'model: Too big');
      expect((await settings()).model).toBeNull();
      await model.fill('mock-model');
      await save();
      await saved();
      await expectValid(model);
      expect((await settings()).model).toBe('mock-model');

      const baseUrl = form.locator('input[name=base_url]');
      await baseUrl.fill('not a url');
      await save();
      await expectErrorBeside(
        baseUrl,
        'INVALID_PARAMS',
        'Base URL must be an absolute http(s) URL such as https://api.openai.com/v1',
      );
      await shot('bad-input-settings-base-url');
      expect((await settings()).base_url).toBeNull();
      await baseUrl.fill('http://localhost:8080/v1');
      await save();
      await saved();
      await expectValid(baseUrl);
      expect((await settings()).base_url).toBe('http://localhost:8080/v1');

      // A key pasted with a space in it: refused by the service, never stored.
      const apiKey = form.locator('input[name=api_key]');
      await apiKey.fill('sk-test another');
      await save();
      await expectErrorBeside(apiKey, 'INVALID_PARAMS', 'api_key: must be one word');
      expect((await settings()).api_key_set).toBe(false);
      await apiKey.fill('sk-test');
      await save();
      await saved();
      await expectValid(apiKey);
      expect((await settings()).api_key_set).toBe(true);

      const token = form.locator('input[name=github_token]');
      await token.fill('ghp_abc\tdef');
      await save();
      await expectErrorBeside(token, 'INVALID_PARAMS', 'github_token: must be one word');
      expect((await settings()).github_token_set).toBe(false);
      await token.fill('ghp_abcdef');
      await save();
      await saved();
      await expectValid(token);
      expect((await settings()).github_token_set).toBe(true);

      const githubUrl = form.locator('input[name=github_api_url]');
      await githubUrl.fill('github dot example');
      await save();
      await expectErrorBeside(githubUrl, 'INVALID_PARAMS', 'github_api_url: Invalid URL');
      expect((await settings()).github_api_url).toBe('https://api.github.com');
      await githubUrl.fill('https://github.example.com/api/v3');
      await save();
      await saved();
      expect((await settings()).github_api_url).toBe('https://github.example.com/api/v3');
    }, 60_000);

    test('settings: a runner config id with bad characters, a default runner no config has, an MCP server without a command', async () => {
      await page.goto(`${base}/settings`);
      const form = page.getByRole('form', { name: 'Settings' });
      await form.waitFor();
      await skipBrowserChecks(form);
      const save = async () => {
        await form.getByRole('button', { name: 'Save settings' }).click();
        await expect.poll(() => form.getByRole('button', { name: 'Save settings' }).isEnabled()).toBe(true);
      };
      const saved = () => form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

      await form.getByRole('button', { name: '+ Add runner config' }).click();
      const id = form.locator('input[name="runner_configs.0.id"]');
      await id.fill('Fast Claude');
      await form.locator('input[name="runner_configs.0.name"]').fill('Fast Claude');
      await save();
      await expectErrorBeside(id, 'INVALID_PARAMS', 'runner_configs.0.id: must be lowercase letters');
      expect((await settings()).runner_configs).toEqual([]);
      await id.fill('fast-claude');
      await save();
      await saved();
      await expectValid(id);
      expect((await settings()).runner_configs.map((config) => config.id)).toEqual(['fast-claude']);

      // The default runner is the config just saved; removing that config leaves a default no config has.
      const defaultRunner = form.locator('select[name=default_runner]');
      await defaultRunner.selectOption('fast-claude');
      await form.getByRole('button', { name: 'Remove runner config Fast Claude' }).click();
      await save();
      await expectErrorBeside(
        defaultRunner,
        'UNKNOWN_RUNNER',
        "default_runner: no runner config has id 'fast-claude'",
      );
      expect((await settings()).runner_configs.map((config) => config.id)).toEqual(['fast-claude']);
      await defaultRunner.selectOption('keel');
      await save();
      await saved();
      await expectValid(defaultRunner);
      const afterRunner = await settings();
      expect(afterRunner.default_runner).toBe('keel');
      expect(afterRunner.runner_configs).toEqual([]);

      await form.getByRole('button', { name: '+ Add MCP server' }).click();
      await form.locator('input[name="mcp_servers.0.name"]').fill('files');
      const command = form.locator('input[name="mcp_servers.0.command"]');
      await save();
      await expectErrorBeside(command, 'INVALID_PARAMS', 'mcp_servers.0.command: Too small');
      // Only the command is marked: the name was fine.
      expect(await form.locator('input[name="mcp_servers.0.name"]').getAttribute('aria-invalid')).toBeNull();
      await shot('bad-input-mcp-command');
      expect((await settings()).mcp_servers).toEqual([]);
      await command.fill('npx');
      await save();
      await saved();
      await expectValid(command);
      expect((await settings()).mcp_servers.map(({ name, command }) => ({ name, command }))).toEqual([
        { name: 'files', command: 'npx' },
      ]);
    }, 60_000);

    test('projects: a name over 200 characters; project settings: a runner deleted meanwhile', async () => {
      await page.goto(`${base}/projects`);
      const form = page.getByRole('form', { name: 'New project' });
      await form.waitFor();
      const name = form.locator('input[name=name]');
      await name.fill('n'.repeat(201));
      await form.locator('input[name="repositories.0.path"]').fill(otherRepo.path);
      await form.getByRole('button', { name: 'Create project' }).click();
      await expectErrorBeside(name, 'INVALID_PARAMS', 'name: Too big');
      expect(await form.locator('input[name="repositories.0.path"]').getAttribute('aria-invalid')).toBeNull();
      expect((await call<{ projects: unknown[] }>(base, 'GET', '/api/projects')).projects).toHaveLength(1);
      await name.fill('Other');
      await form.getByRole('button', { name: 'Create project' }).click();
      await page.waitForURL((url) => /^\/projects\/[^/]+$/.test(url.pathname));
      expect((await call<{ projects: unknown[] }>(base, 'GET', '/api/projects')).projects).toHaveLength(2);

      // The page offers the runner configs it loaded; one is deleted (in another tab) before the save.
      await call(base, 'PUT', '/api/settings', {
        runner_configs: [{ id: 'slow-codex', name: 'Slow Codex', kind: 'codex' }],
      });
      await page.goto(`${base}/projects/${projectId}`);
      const settingsForm = page.getByRole('form', { name: 'Project settings' });
      const runner = settingsForm.locator('select[name=default_runner]');
      await runner.locator('option[value=slow-codex]').waitFor({ state: 'attached' });
      await runner.selectOption('slow-codex');
      await call(base, 'PUT', '/api/settings', { runner_configs: [] });
      await settingsForm.getByRole('button', { name: 'Save project settings' }).click();
      await expectErrorBeside(
        runner,
        'UNKNOWN_RUNNER',
        "default_runner: no runner config has id 'slow-codex'",
      );
      const project = () =>
        call<{ default_runner: string | null }>(base, 'GET', `/api/projects/${projectId}`);
      expect((await project()).default_runner).toBeNull();
      await runner.selectOption('codex');
      await settingsForm.getByRole('button', { name: 'Save project settings' }).click();
      await settingsForm.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await expectValid(runner);
      expect((await project()).default_runner).toBe('codex');
    }, 60_000);

    test('new task: a PRD link that is not http(s), then a description over 50,000 characters', async () => {
      await page.goto(`${base}/tasks/new`);
      const form = page.getByRole('form', { name: 'New task' });
      await form.waitFor();
      await form.locator('select[name=project_id]').selectOption(projectId);
      const description = form.locator('textarea[name=description]');
      const links = form.locator('textarea[name=prd_links]');
      const tasks = async () => (await call<{ tasks: unknown[] }>(base, 'GET', '/api/tasks')).tasks;
      await description.fill('Greet the user by name.');
      await links.fill('https://docs.example.com/prd\nftp://files.example.com/prd.pdf');
      await form.getByRole('button', { name: 'Create task' }).click();
      await expectErrorBeside(links, 'INVALID_PARAMS', 'prd_links.1: Invalid URL');
      expect(await description.getAttribute('aria-invalid')).toBeNull();
      await shot('bad-input-new-task-prd-link');
      expect(await tasks()).toEqual([]);

      await links.fill('https://docs.example.com/prd');
      await description.fill('d'.repeat(50_001));
      await form.getByRole('button', { name: 'Create task' }).click();
      await expectErrorBeside(description, 'INVALID_PARAMS', 'description: Too big');
      await expectValid(links);
      expect(await tasks()).toEqual([]);

      await description.fill('Greet the user by name.');
      await form.getByRole('button', { name: 'Create task' }).click();
      await page.waitForURL((url) => /^\/tasks\/[^/]+$/.test(url.pathname) && url.pathname !== '/tasks/new');
      expect(await tasks()).toHaveLength(1);
    }, 60_000);

    test('skills: a description of spaces; conversations: a title of spaces', async () => {
      await page.goto(`${base}/skills`);
      const form = page.getByRole('form', { name: 'New skill' });
      await form.waitFor();
      await form.getByLabel('Name').fill('code-review');
      const description = form.locator('[name=description]');
      await description.fill('   ');
      await form.getByRole('button', { name: 'Create skill' }).click();
      await expectErrorBeside(description, 'INVALID_PARAMS', 'description: Too small');
      expect((await call<{ skills: unknown[] }>(base, 'GET', '/api/skills')).skills).toEqual([]);
      await description.fill('How we review code.');
      await form.getByRole('button', { name: 'Create skill' }).click();
      await page.getByRole('form', { name: 'Edit skill code-review' }).waitFor();
      expect((await call<{ skills: unknown[] }>(base, 'GET', '/api/skills')).skills).toHaveLength(1);

      await page.goto(`${base}/conversations`);
      const newConversation = page.getByRole('form', { name: 'New conversation' });
      await newConversation.waitFor();
      const title = newConversation.locator('input[name=title]');
      await title.fill('   ');
      await newConversation.getByRole('button', { name: 'Start conversation' }).click();
      await expectErrorBeside(title, 'INVALID_PARAMS', 'title: Too small');
      const conversations = async () =>
        (await call<{ conversations: unknown[] }>(base, 'GET', '/api/conversations')).conversations;
      expect(await conversations()).toEqual([]);
      await title.fill('About the greeter');
      await newConversation.getByRole('button', { name: 'Start conversation' }).click();
      await page.waitForURL(/\/conversations\/[^/]+$/);
      expect(await conversations()).toHaveLength(1);
    }, 60_000);

    test('the key prompt: a wrong key is refused next to the key field; the right one is accepted', async () => {
      await using keyedHome = await createTempDir({ prefix: 'keel-wb-bad-keyed-' });
      const keyed = await createWorkbench({
        home: keyedHome.path,
        env: workbenchEnv(keyedHome, runtimeHome, 'wb-secret-key'),
        spaDir: dist,
      });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const keyedBase = await keyed.listen(0);
        const keyedPage = await context.newPage();
        keyedPage.on('pageerror', (error) => pageErrors.push(error.message));
        await keyedPage.goto(`${keyedBase}/projects`);
        const prompt = keyedPage.getByRole('form', { name: 'Workbench API key' });
        const key = prompt.locator('input[name=api_key]');
        await key.fill('wrong');
        await key.press('Enter');
        await expect.poll(() => key.getAttribute('aria-invalid')).toBe('true');
        const noteId = await key.getAttribute('aria-describedby');
        const note = keyedPage.locator(`[id="${noteId}"]`);
        expect(await note.textContent()).toContain('AUTHENTICATION_FAILED');
        expect(await container(key).locator(`[id="${noteId}"]`).count()).toBe(1);
        await key.fill('wb-secret-key');
        await prompt.getByRole('button', { name: 'Continue' }).click();
        await prompt.waitFor({ state: 'detached' });
        await keyedPage.getByText('No projects yet').waitFor();
      } finally {
        await context.close();
        await keyed.close();
      }
    }, 60_000);
  },
);
