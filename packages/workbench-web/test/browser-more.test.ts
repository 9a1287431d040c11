// Skills, conversations, runner configs and the project's own settings in Debian's Chromium, against the
// REAL workbench service in process (the real Keel runner, a scripted model, a temp git repository).
// Screenshots go to test/screenshots/.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type BrowserWorld, call, hasChromium, shots, startBrowserWorld } from './harness.ts';

interface Skill {
  id: string;
  name: string;
  description: string;
  content: string;
  project_ids: string[];
}

describe.skipIf(!hasChromium)(
  'the workbench SPA: skills, conversations, runner configs, project settings',
  () => {
    let world: BrowserWorld;
    let page: Page;
    let base = '';
    let projectId = '';

    beforeAll(async () => {
      world = await startBrowserWorld({
        prefix: 'more',
        files: { 'README.md': '# Greeter\n', 'src/app.js': 'export {};\n' },
        script: [
          {
            when: { lastMessageIncludes: 'What does this project do' },
            // Slow enough that the reply is seen streaming in over the WebSocket.
            chunkDelayMs: 30,
            text: 'It **greets** users, from `src/app.js`. Ask me about the entry point next.',
          },
        ],
      });
      ({ page, base, projectId } = world);
    }, 120_000);

    afterEach(() => {
      if (world.pageErrors.length > 0) console.error(`errors in the page:\n${world.pageErrors.join('\n')}`);
      expect(world.pageErrors).toEqual([]);
    });

    afterAll(async () => {
      await world?.close();
    });

    const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

    test('skills: a bad name is refused next to the name field; a skill is created, edited, linked and deleted', async () => {
      await page.goto(`${base}/skills`);
      await page.getByText('No skills yet').waitFor();
      const form = page.getByRole('form', { name: 'New skill' });
      await expect.poll(() => form.getByText('lowercase letters and hyphens').count()).toBe(1);
      await form.getByLabel('Name').fill('Code Review');
      await form.getByLabel('Description').fill('How we review code.');
      await form.getByLabel('Description').press('Enter');
      const nameField = form.locator('.field', { has: page.locator('input[name=name]') });
      await nameField.getByRole('alert').filter({ hasText: 'INVALID_PARAMS' }).waitFor();
      expect(await nameField.getByRole('alert').textContent()).toContain('name');
      expect(await form.locator('input[name=name][aria-invalid=true]').count()).toBe(1);
      expect(
        await form
          .locator('label.field', { has: page.locator('input[name=description]') })
          .getByRole('alert')
          .count(),
      ).toBe(0);
      await shot('skills-error');

      await form.getByLabel('Name').fill('code-review');
      await form.getByLabel('Content (Markdown)').fill('# Code review\n\n- Read the **tests** first.');
      await form.getByRole('button', { name: 'Create skill' }).click();
      const editor = page.getByRole('form', { name: 'Edit skill code-review' });
      await editor.waitFor();
      await page.getByTestId('skill-list').getByRole('button', { name: 'code-review' }).waitFor();
      expect(page.url()).toMatch(/\?skill=/);
      expect(await editor.locator('input[name=name]').isDisabled()).toBe(true);

      // Edit: description and content; the preview renders the Markdown; Ctrl+Enter in the content saves.
      await editor.getByLabel('Description').fill('How we review code: tests first.');
      await editor
        .getByLabel('Content (Markdown)')
        .fill('# Code review\n\n1. Read the **tests** first.\n2. Then the code.');
      await editor.getByRole('tab', { name: 'Preview' }).click();
      await page.getByTestId('skill-preview').locator('strong', { hasText: 'tests' }).waitFor();
      await editor.getByRole('tab', { name: 'Write' }).click();
      await editor.getByLabel('Content (Markdown)').press('Control+Enter');
      await editor.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

      // Link to the project.
      // A click, then the saved state: the box is controlled by the service's answer (check() would
      // insist on seeing the change within its own click, which a busy machine can miss).
      await page.getByRole('checkbox', { name: 'Greeter' }).click();
      await expect.poll(() => page.getByRole('checkbox', { name: 'Greeter' }).isChecked()).toBe(true);
      await page.getByTestId('skill-list').getByText('linked to 1 project').waitFor();
      const skills = await call<{ skills: Skill[] }>(base, 'GET', '/api/skills');
      expect(skills.skills).toHaveLength(1);
      const stored = await call<Skill>(base, 'GET', `/api/skills/${skills.skills[0]?.id}`);
      expect(stored).toMatchObject({
        name: 'code-review',
        description: 'How we review code: tests first.',
        content: '# Code review\n\n1. Read the **tests** first.\n2. Then the code.',
        project_ids: [projectId],
      });
      await editor.getByRole('tab', { name: 'Preview' }).click();
      await page.getByTestId('skill-preview').locator('ol li').nth(1).waitFor();
      await shot('skill-edit');
      await page.emulateMedia({ colorScheme: 'dark' });
      await shot('skill-edit-dark');
      await page.emulateMedia({ colorScheme: 'light' });

      // Unlink, then delete (asked twice).
      await page.getByRole('checkbox', { name: 'Greeter' }).click();
      await expect.poll(() => page.getByRole('checkbox', { name: 'Greeter' }).isChecked()).toBe(false);
      await page.getByTestId('skill-list').getByText('not linked').waitFor();
      await page.getByRole('button', { name: 'Delete skill' }).click();
      await page
        .getByRole('group', { name: /Delete code-review\?/ })
        .getByRole('button', { name: 'Delete' })
        .click();
      await page.getByText('No skills yet').waitFor();
      expect((await call<{ skills: Skill[] }>(base, 'GET', '/api/skills')).skills).toEqual([]);
    }, 60_000);

    test('conversations: one on the project is created, opened, and a message over the WebSocket gets the streamed reply', async () => {
      await page.goto(`${base}/conversations`);
      await page.getByText('No conversations yet').waitFor();
      await page.getByLabel('Title').fill('About the greeter');
      await page.getByLabel('Project (optional)').selectOption({ label: 'Greeter' });
      await page.getByLabel('Title').press('Enter');
      await page.waitForURL(/\/conversations\/[^/]+$/);
      const conversationId = page.url().split('/').at(-1) ?? '';
      await page.getByRole('heading', { name: 'About the greeter' }).waitFor();
      // Opened by the page: the conversation now has a session.
      await page.getByTestId('session-view').waitFor();
      const opened = await call<{ session_id: string | null }>(
        base,
        'GET',
        `/api/conversations/${conversationId}`,
      );
      expect(opened.session_id).toBeTruthy();

      await page.getByLabel('Message').fill('What does this project do?');
      await page.getByLabel('Message').press('Enter');
      await page.locator('.t-user', { hasText: 'What does this project do?' }).waitFor({ timeout: 30_000 });
      await page.locator('.t-assistant.streaming').waitFor({ timeout: 30_000 });
      await page.locator('.t-assistant .markdown strong', { hasText: 'greets' }).waitFor({ timeout: 30_000 });
      await page.locator('.session-head .badge', { hasText: 'succeeded' }).waitFor({ timeout: 30_000 });
      await shot('conversation');

      await page.goto(`${base}/conversations`);
      const card = page.getByTestId('conversation-list').locator('li', { hasText: 'About the greeter' });
      await card.getByText('about Greeter').waitFor();
      await shot('conversations');
      // Delete, asked twice.
      await card.getByRole('button', { name: 'Delete' }).click();
      await card.getByRole('group').getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No conversations yet').waitFor();
    }, 60_000);

    test('settings: a runner config is added, chosen as the default runner, and listed usable by the check', async () => {
      await page.goto(`${base}/settings`);
      await page.getByText('Ready: AI actions can run.').waitFor();
      await page.getByText('No runner configs of your own').waitFor();
      await page.getByRole('button', { name: '+ Add runner config' }).click();
      const row = page.getByTestId('runner-config');
      await row.getByLabel('Id').fill('Mock Fast');
      await row.getByLabel('Name').fill('Mock, fast');
      await row.getByLabel('Kind').selectOption('keel');
      await row.getByLabel('Model').fill('mock-model');
      await row.getByLabel('Extra args (one per line)').fill('--fast\n--quiet');
      await row.getByLabel('Env (KEY=value per line)').fill('MOCK_MODE=fast');
      await page.locator('select[name=default_runner]').selectOption('Mock Fast');
      await page.getByRole('button', { name: 'Save settings' }).click();
      // The service's rule for an id, shown next to the id.
      const idField = row.locator('.field', { has: page.locator('input[name="runner_configs.0.id"]') });
      await idField.getByRole('alert').filter({ hasText: 'INVALID_PARAMS' }).waitFor();
      await shot('settings-runner-error');

      await row.getByLabel('Id').fill('mock-fast');
      // Renaming the default config's id keeps it the default.
      expect(await page.locator('select[name=default_runner]').inputValue()).toBe('mock-fast');
      await row.getByLabel('Id').press('Enter');
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const banner = page.getByTestId('settings-check');
      await banner.locator('[data-config-id="mock-fast"].usable').waitFor();
      const settings = await call<Record<string, unknown>>(base, 'GET', '/api/settings');
      expect(settings.default_runner).toBe('mock-fast');
      expect(settings.runner_configs).toEqual([
        {
          id: 'mock-fast',
          name: 'Mock, fast',
          kind: 'keel',
          model: 'mock-model',
          extra_args: ['--fast', '--quiet'],
          env: { MOCK_MODE: 'fast' },
        },
      ]);
      // A reload shows it stored.
      await page.reload();
      await expect
        .poll(() => page.locator('input[name="runner_configs.0.id"]').inputValue())
        .toBe('mock-fast');
      expect(await page.locator('select[name=default_runner]').inputValue()).toBe('mock-fast');
      await shot('settings-runner-configs');
      await page.emulateMedia({ colorScheme: 'dark' });
      await shot('settings-runner-configs-dark');
      await page.emulateMedia({ colorScheme: 'light' });
    }, 60_000);

    test("project settings: the default runner and a repository's provider are saved; the project is deleted", async () => {
      await page.goto(`${base}/projects/${projectId}`);
      const form = page.getByRole('form', { name: 'Project settings' });
      await form.waitFor();
      await form.locator('select[name=default_runner]').selectOption('mock-fast');
      await form.locator('select[name="repositories.0.provider"]').selectOption('gitlab');
      await form.getByRole('note').filter({ hasText: 'generated again' }).waitFor();
      await form.getByRole('button', { name: 'Save project settings' }).click();
      await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const project = await call<{ default_runner: string; repositories: { provider?: string }[] }>(
        base,
        'GET',
        `/api/projects/${projectId}`,
      );
      expect(project.default_runner).toBe('mock-fast');
      expect(project.repositories[0]?.provider).toBe('gitlab');
      await page.getByRole('rowheader', { name: /gitlab/ }).waitFor();
      await shot('project-settings');

      // Back to the global default.
      await form.locator('select[name=default_runner]').selectOption('');
      await form.getByRole('button', { name: 'Save project settings' }).click();
      await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect(
        (await call<{ default_runner: string | null }>(base, 'GET', `/api/projects/${projectId}`))
          .default_runner,
      ).toBe(null);

      // The new provider sent the repositories again, so the knowledge is generated again (from the world's
      // knowledge replies); the project can be deleted once that ended.
      const remove = form.getByRole('button', { name: 'Delete project' });
      await expect.poll(() => remove.isEnabled(), { timeout: 30_000 }).toBe(true);
      await remove.click();
      const question = form.getByRole('group', { name: /Delete Greeter/ });
      await question.waitFor();
      // Escape takes the question back.
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'detached' });
      await form.getByRole('button', { name: 'Delete project' }).click();
      await question.getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL(/\/projects$/);
      await page.getByText('No projects yet').waitFor();
      expect((await call<{ projects: unknown[] }>(base, 'GET', '/api/projects')).projects).toEqual([]);
    }, 60_000);
  },
);
