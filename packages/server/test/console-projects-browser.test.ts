// keel-web's console in Debian's Chromium against the REAL server over a scripted model: projects and tasks
// (created from the console on a real temp git repo, a 422 next to the field it names, init writing
// AGENTS.md through a run, a run started in a project's session) and a parent run's sub-agent (its spawn
// and end in the transcript, the child run marked in the list and linked back to its parent, the timeline's
// entry). Screenshots (light and dark) go to test/screenshots/, which git ignores.
import { mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitForFileCommand } from '@keel/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, git, hasChromium, launchBrowser, openPage } from '../../workbench-web/test/harness.ts';
import { startServer } from './harness.ts';

const shots = join(import.meta.dirname, 'screenshots');

describe.skipIf(!hasChromium)(
  'the runtime console: projects, tasks and sub-agents (Chromium, real keel-web)',
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

    async function page(errors: string[], width = 1366, height = 860): Promise<Page> {
      const opened = await openPage(browser, errors);
      await opened.setViewportSize({ width, height });
      return opened;
    }

    /** Both themes of what the page shows now. */
    async function shoot(p: Page, name: string) {
      await p.emulateMedia({ colorScheme: 'light' });
      await p.screenshot({ path: join(shots, `${name}-light.png`) });
      await p.emulateMedia({ colorScheme: 'dark' });
      await p.screenshot({ path: join(shots, `${name}-dark.png`) });
      await p.emulateMedia({ colorScheme: 'light' });
    }

    test('a project is created, listed, given a task (its branch made), run in, and initialised', async () => {
      const guide = '# Shop\n\n- Test with `npm test`.\n';
      await using s = await startServer(
        [
          { when: { lastMessageIncludes: 'Say hello' }, text: 'Hello from the project.' },
          {
            when: { lastMessageIncludes: 'AGENTS.md' },
            toolCalls: [{ name: 'write_file', arguments: { path: 'AGENTS.md', content: guide } }],
          },
          { when: { lastRole: 'tool' }, text: 'Wrote AGENTS.md: layout and commands.' },
        ],
        { files: { 'package.json': '{"scripts": {"test": "vitest"}}', 'src/index.ts': 'export {};\n' } },
      );
      const errors: string[] = [];
      const p = await page(errors);
      try {
        await p.goto(`${s.base}/console`);
        const side = p.getByRole('region', { name: 'Projects' });
        await side.getByText('No projects yet').waitFor();
        await side.getByRole('button', { name: '+ New project' }).click();
        const form = p.getByRole('form', { name: 'New project' });
        await expect.poll(() => form.getByLabel('Directory').inputValue()).toBe(s.repo.path);

        // A directory that does not exist: the 422 under the Directory field, which is marked invalid.
        await form.getByLabel('Name').fill('Shop');
        await form.getByLabel('Description').fill('The shop: a storefront and its checkout.');
        await form.getByLabel('Directory').fill(join(s.repo.path, 'no-such-dir'));
        await form.getByRole('button', { name: 'Create project' }).click();
        const workdirError = form.locator('[data-error-for="workdir"] .error-note');
        // The code is in the note, folded under its Details (the sentence comes first).
        await workdirError.getByText('INVALID_PARAMS').waitFor({ state: 'attached' });
        expect(await form.getByLabel('Directory').getAttribute('aria-invalid')).toBe('true');

        // The picker browses the server's directories: into src/, back up, and this folder is used.
        await form.getByRole('button', { name: 'Browse…' }).click();
        const picker = p.getByRole('dialog', { name: "Choose the project's directory" });
        // It opens at the typed path, which is no directory: it says so and goes on from the folder above.
        await picker.locator('.error-note', { hasText: 'No directory at' }).waitFor();
        await picker.getByRole('button', { name: `↑ ${s.repo.path}` }).click();
        await picker.getByRole('button', { name: '▸ src' }).click();
        await expect
          .poll(() => picker.getByTestId('picker-path').textContent())
          .toBe(join(s.repo.path, 'src'));
        await picker.getByRole('button', { name: '↑ ..' }).click();
        await expect.poll(() => picker.getByTestId('picker-path').textContent()).toBe(s.repo.path);
        await picker.getByRole('button', { name: 'Use this folder' }).click();
        await expect.poll(() => form.getByLabel('Directory').inputValue()).toBe(s.repo.path);
        await form.getByRole('button', { name: 'Create project' }).click();

        // Created: listed in the side, open in the main pane (and in the address).
        const view = p.locator('.project-view');
        await view.locator('.run-title', { hasText: 'Shop' }).waitFor();
        const projectId = new URL(p.url()).searchParams.get('project') ?? '';
        expect(projectId).toMatch(/^prj_|^proj/);
        await side.locator(`[data-project-id="${projectId}"]`, { hasText: 'Shop' }).waitFor();
        const project = (await s.api('GET', `/api/projects/${projectId}`)).body;
        expect(project).toMatchObject({ name: 'Shop', workdir: s.repo.path });
        await view.getByText('The shop: a storefront and its checkout.').waitFor();
        await view.getByText(project.session_id).waitFor();

        // A branch name git refuses: the 422 next to the Branch field.
        const tasks = view.getByRole('region', { name: 'Tasks' });
        const taskForm = tasks.getByRole('form', { name: 'New task' });
        await taskForm.getByLabel('Task').fill('Checkout page');
        await taskForm.getByLabel('Branch').fill('bad..name');
        await taskForm.getByRole('button', { name: 'Create task' }).click();
        const branchError = taskForm.locator('[data-error-for="branch_name"] .error-note');
        await branchError.getByText('INVALID_PARAMS').waitFor({ state: 'attached' });
        expect(await branchError.textContent()).toContain('branch_name');
        expect(await taskForm.getByLabel('Branch').getAttribute('aria-invalid')).toBe('true');
        expect(await taskForm.getByLabel('Task').getAttribute('aria-invalid')).toBeNull();
        expect(git(s.repo.path, 'branch', '--list', 'bad..name')).toBe('');
        await shoot(p, 'console-task-422');

        // A good one: listed, and the branch exists and is checked out.
        await taskForm.getByLabel('Branch').fill('feature/checkout');
        await taskForm.getByRole('button', { name: 'Create task' }).click();
        const row = tasks.locator('.task-row', { hasText: 'Checkout page' });
        await row.getByText('feature/checkout').waitFor();
        expect(await branchError.count()).toBe(0);
        expect(git(s.repo.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('feature/checkout');
        await taskForm.getByLabel('Task').fill('Scratch');
        await taskForm.getByLabel('Branch').fill('scratch');
        await taskForm.getByRole('button', { name: 'Create task' }).click();
        const scratch = tasks.locator('.task-row', { hasText: 'Scratch' });
        await scratch.waitFor();
        expect(git(s.repo.path, 'branch', '--list', 'scratch')).toContain('scratch');
        await shoot(p, 'console-project');

        // Deleting a task (asked twice) removes its record; its branch stays.
        const scratchId = (await scratch.getAttribute('data-task-id')) ?? '';
        await scratch.getByRole('button', { name: 'Delete' }).click();
        await scratch.getByRole('group').getByRole('button', { name: 'Delete' }).click();
        await scratch.waitFor({ state: 'detached' });
        expect((await s.api('GET', `/api/tasks/${scratchId}`)).status).toBe(404);
        expect(git(s.repo.path, 'branch', '--list', 'scratch')).toContain('scratch');

        // "Start a run here": the New run form takes the project's directory and session.
        await view.getByRole('button', { name: 'Start a run here' }).click();
        const runForm = p.getByRole('form', { name: 'New run' });
        await runForm.getByTestId('run-target').getByText('In project Shop').waitFor();
        await runForm.getByTestId('run-target').getByText(project.session_id).waitFor();
        await runForm.getByLabel('Prompt').fill('Say hello');
        await runForm.getByRole('button', { name: 'Start run' }).click();
        await p.locator('.run-title', { hasText: 'Say hello' }).waitFor();
        const helloRun = new URL(p.url()).searchParams.get('run') ?? '';
        await p.getByTestId('run-status').getByText('succeeded').waitFor();
        const hello = (await s.api('GET', `/runtime/runs/${helloRun}`)).body;
        expect(hello).toMatchObject({ session_id: project.session_id, workdir: s.repo.path });

        // Init: its run opens, writes AGENTS.md with the scripted model, and succeeds.
        await side.locator(`[data-project-id="${projectId}"] a`).click();
        await view.getByRole('button', { name: 'Write AGENTS.md (init)' }).click();
        await expect.poll(() => new URL(p.url()).searchParams.get('run')).toMatch(/^run_/);
        const initRun = new URL(p.url()).searchParams.get('run') ?? '';
        expect(initRun).not.toBe(helloRun);
        const transcript = p.getByTestId('transcript');
        await transcript.locator('.t-tool[data-tool="write_file"][data-state="ok"]').waitFor();
        await p.getByTestId('run-status').getByText('succeeded').waitFor();
        expect(await readFile(join(s.repo.path, 'AGENTS.md'), 'utf8')).toBe(guide);
        await shoot(p, 'console-project-init');
        expect(errors).toEqual([]);
      } finally {
        await p.close();
      }
    }, 90_000);

    test('a parent run spawns a sub-agent: spawn and end in its transcript, the child linked both ways', async () => {
      await using s = await startServer(
        [
          {
            when: { lastMessageIncludes: 'Lead the research' },
            toolCalls: [
              { name: 'spawn_agent', arguments: { task: 'Summarise the readme', type: 'research' } },
              { name: 'exec_command', arguments: { command: waitForFileCommand('go', 'gate-open') } },
            ],
          },
          { when: { lastMessageIncludes: 'Summarise the readme' }, text: 'The readme says Demo.' },
        ],
        { files: { 'README.md': '# Demo\n' } },
      );
      const errors: string[] = [];
      const p = await page(errors);
      try {
        await p.goto(`${s.base}/console`);
        const form = p.getByRole('form', { name: 'New run' });
        await form.getByLabel('Prompt').fill('Lead the research');
        await form.getByRole('button', { name: 'Start run' }).click();
        await expect.poll(() => new URL(p.url()).searchParams.get('run')).toMatch(/^run_/);
        const parentId = new URL(p.url()).searchParams.get('run') ?? '';
        const transcript = p.getByTestId('transcript');
        const spawned = transcript.locator('[data-agent-event="spawned"]');
        await spawned.getByText('Summarise the readme').waitFor();
        const agentId = (await spawned.getAttribute('data-agent-id')) ?? '';
        expect(agentId).toMatch(/^agt_/);

        // The parent waits for its sub-agent's answer, then ends with it.
        s.model.push(
          {
            when: { lastRole: 'tool', lastMessageIncludes: 'gate-open' },
            toolCalls: [{ name: 'get_agent_status', arguments: { agent_id: agentId, wait: true } }],
          },
          {
            when: { lastRole: 'tool', lastMessageIncludes: 'The readme says Demo' },
            text: 'The research is in: the readme says Demo.',
          },
        );
        await writeFile(join(s.repo.path, 'go'), '');
        const finished = transcript.locator('[data-agent-event="finished"]');
        await finished.getByText('Sub-agent finished (research)').waitFor();
        await finished.getByText('Summarise the readme').waitFor();
        await transcript.locator('.t-assistant', { hasText: 'The research is in' }).waitFor();
        await p.getByTestId('run-status').getByText('succeeded').waitFor();
        const childId = (await spawned.locator('[data-run-link]').getAttribute('data-run-link')) ?? '';
        expect(childId).toMatch(/^run_/);
        expect(childId).not.toBe(parentId);

        // The runs list marks the child run.
        const child = p.locator(`.run-list li[data-run-id="${childId}"]`);
        await child.getByText('↳ research: Summarise the readme').waitFor();
        expect(await child.getAttribute('data-sub-agent')).toBe('research');
        await shoot(p, 'console-sub-agent-parent');

        // The spawn's link opens the child run, which links back to its parent.
        await spawned.getByRole('link', { name: 'Open its run →' }).click();
        await expect.poll(() => new URL(p.url()).searchParams.get('run')).toBe(childId);
        await p.locator('.run-title', { hasText: '↳ research: Summarise the readme' }).waitFor();
        const parentLink = p.getByTestId('run-parent');
        await parentLink.getByText(agentId).waitFor();
        await p
          .getByTestId('transcript')
          .locator('.t-assistant', { hasText: 'The readme says Demo.' })
          .waitFor();
        await shoot(p, 'console-sub-agent-child');
        await parentLink.getByRole('link').click();
        await expect.poll(() => new URL(p.url()).searchParams.get('run')).toBe(parentId);

        // The parent's timeline lists the sub-agent with its status and a link to its run.
        await p.getByRole('tab', { name: 'Timeline' }).click();
        const entry = p.getByRole('region', { name: 'Timeline' }).locator('.tl-sub_agent');
        await entry.getByText('Summarise the readme').waitFor();
        await entry.getByText('succeeded').waitFor();
        await shoot(p, 'console-sub-agent-timeline');
        await entry.getByRole('link', { name: new RegExp(`Open its run ${childId}`) }).click();
        await expect.poll(() => new URL(p.url()).searchParams.get('run')).toBe(childId);
        expect(errors).toEqual([]);
      } finally {
        await p.close();
      }
    }, 90_000);
  },
);
