// keel-web's console in Debian's Chromium against the REAL server: a project and its tasks edited in place
// (`PUT`: a refused edit's 422 next to the field it names with nothing changed, a dirty tree's 409 by the
// buttons, the new values shown after a reload) and deleted (asked twice, `DELETE`). Screenshots (light and
// dark) go to test/screenshots/, which git ignores.
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, git, hasChromium, launchBrowser, openPage } from '../../workbench-web/test/harness.ts';
import { startServer } from './harness.ts';

const shots = join(import.meta.dirname, 'screenshots');
// The machine may be busy (CI beside the test): every wait is on what the page shows, with room.
const poll = { timeout: 20_000, interval: 100 };

describe.skipIf(!hasChromium)(
  'the runtime console: editing and deleting projects and tasks (Chromium)',
  () => {
    let browser: Browser;
    beforeAll(async () => {
      await ensureBuilt();
      mkdirSync(shots, { recursive: true });
      browser = await launchBrowser();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
    });

    async function shoot(p: Page, name: string) {
      await p.emulateMedia({ colorScheme: 'light' });
      await p.screenshot({ path: join(shots, `${name}-light.png`) });
      await p.emulateMedia({ colorScheme: 'dark' });
      await p.screenshot({ path: join(shots, `${name}-dark.png`) });
      await p.emulateMedia({ colorScheme: 'light' });
    }

    /** The field is marked invalid and described by a `role=alert` note that says `text`. */
    async function expectInvalid(field: Locator, text: string) {
      await expect.poll(() => field.getAttribute('aria-invalid'), poll).toBe('true');
      const noteId = (await field.getAttribute('aria-describedby')) ?? '';
      const note = field.page().locator(`[id="${noteId}"]`);
      expect(await note.getAttribute('role')).toBe('alert');
      await expect.poll(() => note.textContent(), poll).toContain(text);
    }

    test('a project and a task are edited in place, a bad edit is refused at its field, both deleted', async () => {
      await using s = await startServer([], {
        files: { 'README.md': '# Shop\n', 'lib/util.ts': 'export {};\n' },
      });
      const created = await s.api('POST', '/api/projects', {
        name: 'Shop',
        description: 'The shop.',
        workdir: s.repo.path,
      });
      expect(created.status).toBe(201);
      const projectId: string = created.body.id;
      const task = (
        await s.api('POST', `/api/projects/${projectId}/tasks`, {
          name: 'Checkout page',
          branch_name: 'feature/checkout',
        })
      ).body;
      const scratch = (
        await s.api('POST', `/api/projects/${projectId}/tasks`, { name: 'Scratch', branch_name: 'scratch' })
      ).body;
      expect(git(s.repo.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('scratch');

      const errors: string[] = [];
      const p = await openPage(browser, errors);
      try {
        await p.setViewportSize({ width: 1366, height: 900 });
        await p.goto(`${s.base}/console?project=${projectId}`);
        const side = p.getByRole('region', { name: 'Projects' });
        const view = p.locator('.project-view');
        await view.locator('.run-title', { hasText: 'Shop' }).waitFor();

        // Edit opens the project's fields, filled in.
        await view.getByRole('button', { name: 'Edit project' }).click();
        const form = view.getByRole('form', { name: 'Edit project' });
        await expect.poll(() => form.getByLabel('Name').inputValue(), poll).toBe('Shop');
        expect(await form.getByLabel('Description').inputValue()).toBe('The shop.');
        expect(await form.getByLabel('Directory').inputValue()).toBe(s.repo.path);
        expect(await form.getByLabel('Code paths').inputValue()).toBe('');
        // Nothing changed yet: nothing to save.
        expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);

        // A code path that does not exist: the 422 under Code paths, and the rename with it is not made.
        await form.getByLabel('Name').fill('Storefront');
        await form.getByLabel('Code paths').fill('no-such-dir');
        await form.getByRole('button', { name: 'Save' }).click();
        // The code is in the note, folded under its Details (the sentence comes first).
        await form
          .locator('[data-error-for="code_paths"] .error-note')
          .getByText('INVALID_PARAMS')
          .waitFor({ state: 'attached' });
        await expectInvalid(form.getByLabel('Code paths'), 'does not exist');
        expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBeNull();
        expect((await s.api('GET', `/api/projects/${projectId}`)).body).toMatchObject({
          name: 'Shop',
          code_paths: [],
        });
        await shoot(p, 'console-project-edit-422');

        // Fixed: saved, the form closes, and the view and the list show the new name.
        await form.getByLabel('Code paths').fill('lib');
        await form.getByLabel('Description').fill('The storefront and its checkout.');
        await form.getByRole('button', { name: 'Save' }).click();
        await form.waitFor({ state: 'detached' });
        await view.locator('.run-title', { hasText: 'Storefront' }).waitFor();
        await view.getByText('The storefront and its checkout.').waitFor();
        await view.getByText(join(s.repo.path, 'lib')).waitFor();
        await side.locator(`[data-project-id="${projectId}"]`, { hasText: 'Storefront' }).waitFor();
        expect((await s.api('GET', `/api/projects/${projectId}`)).body).toMatchObject({
          name: 'Storefront',
          description: 'The storefront and its checkout.',
          workdir: s.repo.path,
          code_paths: [join(s.repo.path, 'lib')],
        });

        // Escape leaves an edit without saving it.
        await view.getByRole('button', { name: 'Edit project' }).click();
        await form.getByLabel('Name').fill('Not saved');
        await form.getByLabel('Name').press('Escape');
        await form.waitFor({ state: 'detached' });
        await view.locator('.run-title', { hasText: 'Storefront' }).waitFor();

        // A task: a branch name git refuses is shown under Branch; a good rename and branch are saved.
        const tasks = view.getByRole('region', { name: 'Tasks' });
        const row = tasks.locator(`[data-task-id="${task.id}"]`);
        await row.getByRole('button', { name: 'Edit' }).click();
        const taskForm = row.getByRole('form', { name: 'Edit task Checkout page' });
        await expect.poll(() => taskForm.getByLabel('Task').inputValue(), poll).toBe('Checkout page');
        expect(await taskForm.getByLabel('Branch').inputValue()).toBe('feature/checkout');
        await taskForm.getByLabel('Branch').fill('bad..name');
        await taskForm.getByRole('button', { name: 'Save' }).click();
        await taskForm
          .locator('[data-error-for="branch_name"] .error-note')
          .getByText('INVALID_PARAMS')
          .waitFor({ state: 'attached' });
        await expectInvalid(taskForm.getByLabel('Branch'), 'branch_name');
        expect(await taskForm.getByLabel('Task').getAttribute('aria-invalid')).toBeNull();
        expect(git(s.repo.path, 'branch', '--list', 'bad..name')).toBe('');
        await shoot(p, 'console-task-edit-422');

        // Another branch on a dirty tree: the 409 by the buttons, no field blamed, the branch not made.
        await writeFile(join(s.repo.path, 'README.md'), '# Shop, edited\n');
        await taskForm.getByLabel('Branch').fill('feature/cart');
        await taskForm.getByRole('button', { name: 'Save' }).click();
        await taskForm.locator('.error-note', { hasText: 'INVALID_STATE' }).waitFor();
        expect(await taskForm.locator('[data-error-for]').count()).toBe(0);
        expect(await taskForm.getByLabel('Branch').getAttribute('aria-invalid')).toBeNull();
        expect(git(s.repo.path, 'branch', '--list', 'feature/cart')).toBe('');
        await writeFile(join(s.repo.path, 'README.md'), '# Shop\n');

        await taskForm.getByLabel('Task').fill('Cart page');
        await taskForm.getByLabel('Branch').fill('feature/cart');
        await taskForm.getByRole('button', { name: 'Save' }).click();
        await taskForm.waitFor({ state: 'detached' });
        await row.locator('.task-name', { hasText: 'Cart page' }).waitFor();
        await row.getByText('feature/cart').waitFor();
        expect(git(s.repo.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('feature/cart');
        expect((await s.api('GET', `/api/tasks/${task.id}`)).body).toMatchObject({
          name: 'Cart page',
          branch_name: 'feature/cart',
        });

        // After a reload the list and the view read the new values from the server.
        await p.reload();
        await view.locator('.run-title', { hasText: 'Storefront' }).waitFor();
        await side.locator(`[data-project-id="${projectId}"]`, { hasText: 'Storefront' }).waitFor();
        expect(await side.getByText('Shop', { exact: true }).count()).toBe(0);
        await row.locator('.task-name', { hasText: 'Cart page' }).waitFor();
        await row.getByText('feature/cart').waitFor();

        // Deleting a task is asked twice; its record goes, its branch stays.
        const scratchRow = tasks.locator(`[data-task-id="${scratch.id}"]`);
        await scratchRow.getByRole('button', { name: 'Delete' }).click();
        await scratchRow.getByRole('group').getByRole('button', { name: 'Delete' }).click();
        await scratchRow.waitFor({ state: 'detached' });
        expect((await s.api('GET', `/api/tasks/${scratch.id}`)).status).toBe(404);
        expect(git(s.repo.path, 'branch', '--list', 'scratch')).toContain('scratch');

        // Deleting the project: asked twice, then back to the list, where it is gone.
        await view.getByRole('button', { name: 'Delete project' }).click();
        await view.getByRole('group').getByRole('button', { name: 'Delete project' }).click();
        await view.waitFor({ state: 'detached' });
        await expect.poll(() => new URL(p.url()).searchParams.get('project'), poll).toBeNull();
        await side.getByText('No projects yet').waitFor();
        expect((await s.api('GET', `/api/projects/${projectId}`)).status).toBe(404);
        expect((await s.api('GET', `/api/tasks/${task.id}`)).status).toBe(404);
        // Back to its address says it is gone (not a cached copy of it).
        await p.goBack();
        await p.getByText('This project cannot be shown').waitFor();
        await p.locator('.run-missing').getByText('PROJECT_NOT_FOUND').waitFor({ state: 'attached' });
        expect(errors).toEqual([]);
      } finally {
        await p.close();
      }
    }, 120_000);
  },
);
