// The workbench SPA in Debian's Chromium against the REAL workbench service (in process, the real Keel
// runner, a scripted model): settings, a project from two real git repositories, knowledge, and a task
// taken through all five stages to a pushed branch. A screenshot of every page goes to test/screenshots/.
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  createTempDir,
  createTempGitRepo,
  type MockModel,
  type ScriptedReply,
  startMockModel,
  type TempDir,
  type TempGitRepo,
} from '@keel/testkit';
import { createWorkbench, type Workbench } from '@keel/workbench';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  dist,
  ensureBuilt,
  git,
  hasChromium,
  launchBrowser,
  openPage,
  shots,
  workbenchEnv,
} from './harness.ts';

/** What the scripted model answers, by the prompt's words (prompts live in the workbench's tasks/prompts.ts). */
function script(frontend: string, backend: string): ScriptedReply[] {
  const knowledge: ScriptedReply[] = [];
  for (let i = 0; i < 2; i++) {
    knowledge.push(
      {
        when: { lastMessageIncludes: 'Describe the STRUCTURE' },
        text: '# Structure\n\n`src/` holds the code.\n\n## Conventions\n\n- Two-space indentation.',
      },
      {
        when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' },
        text: '# Business flow\n\nUsers greet.',
      },
      {
        when: { lastMessageIncludes: 'Describe the MODULES' },
        text: '# Modules\n\n- `app`: the entry point\n\n## Conventions\n\n- One module per file.',
      },
      {
        when: { lastMessageIncludes: 'Write a short INDEX' },
        text: '# Index\n\nA greeting app. Entry: `src/app.js`.',
      },
    );
  }
  return [
    // The first business-flow layer fails (a refused request), so the page shows it failed and retries it.
    {
      when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' },
      error: { status: 400, message: 'scripted refusal' },
    },
    ...knowledge,
    {
      when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' },
      text: '# Business flow\n\nUsers greet (retried).',
    },
    {
      when: { lastMessageIncludes: 'Write the technical plan' },
      reasoning: 'The task asks for a greeting in both repositories.',
      text: '# Plan\n\nAdd a greeting to both repositories.\n\n- frontend: `src/greeting.js`\n- backend: `src/hello.js`',
    },
    {
      when: { lastMessageIncludes: 'Mention the tests' },
      // Slow enough that the page shows the text while it streams in over the WebSocket.
      chunkDelayMs: 40,
      text: '# Plan v2\n\nAdd a greeting to both repositories, **with tests**.\n\n1. Frontend greeting\n2. Backend greeting',
    },
    {
      when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
      text:
        '```json\n[{"title": "Frontend greeting", "description": "Create src/greeting.js", "expected_output": "a module"},' +
        ' {"title": "Backend greeting", "description": "Create src/hello.js", "expected_output": "a module"}]\n```',
    },
    {
      when: { lastMessageIncludes: 'Do todo 1 of 2' },
      toolCalls: [
        {
          name: 'write_file',
          arguments: { path: `${frontend}/src/greeting.js`, content: 'export const greeting = "hi";\n' },
        },
      ],
    },
    { when: { lastRole: 'tool' }, text: 'Wrote the greeting.' },
    {
      when: { lastMessageIncludes: 'Do todo 2 of 2' },
      toolCalls: [
        {
          name: 'write_file',
          arguments: { path: `${backend}/src/hello.js`, content: 'export const hello = () => "hello";\n' },
        },
      ],
    },
    { when: { lastRole: 'tool' }, text: 'Wrote the backend greeting.' },
    {
      when: { lastMessageIncludes: 'Write the commit message' },
      text: 'feat: greet in both apps\n\nAdds a greeting module to the frontend and the backend.',
    },
  ];
}

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR42mP8z8DwnwEIGBkYGBgYAAAiAQP/1m8MsQAAAABJRU5ErkJggg==',
  'base64',
);

describe.skipIf(!hasChromium)('the workbench SPA (Chromium, real workbench service)', () => {
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;
  let model: MockModel;
  let spa: { url: string };
  let home: TempDir;
  let runtimeHome: TempDir;
  let remotes: TempDir;
  let notARepo: TempDir;
  let frontend: TempGitRepo;
  let backend: TempGitRepo;
  let projectId = '';
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    mkdirSync(shots, { recursive: true });
    home = await createTempDir({ prefix: 'keel-wb-home-' });
    runtimeHome = await createTempDir({ prefix: 'keel-wb-runtime-' });
    remotes = await createTempDir({ prefix: 'keel-wb-remotes-' });
    notARepo = await createTempDir({ prefix: 'keel-not-a-repo-' });
    frontend = await createTempGitRepo({
      files: { 'package.json': '{"name":"web"}\n', 'src/app.js': 'export {};\n' },
    });
    backend = await createTempGitRepo({
      files: { 'package.json': '{"name":"api"}\n', 'src/server.js': "'hello'\n" },
    });
    for (const repo of [frontend, backend]) {
      const bare = join(remotes.path, `${basename(repo.path)}.git`);
      git(remotes.path, 'init', '-q', '--bare', '-b', 'main', bare);
      await repo.git('remote', 'add', 'origin', bare);
      await repo.git('push', '-q', 'origin', 'main');
    }
    model = await startMockModel({ script: script(basename(frontend.path), basename(backend.path)) });
    // The workbench serves the built app at `/`, as it does for a user.
    workbench = await createWorkbench({
      home: home.path,
      env: workbenchEnv(home, runtimeHome),
      spaDir: dist,
    });
    spa = { url: await workbench.listen(0) };
    browser = await launchBrowser();
    // A script error in the page fails the test with its message, not a timeout.
    page = await openPage(browser, pageErrors);
  }, 120_000);

  afterEach(() => {
    if (pageErrors.length > 0) console.error(`errors in the page:\n${pageErrors.join('\n')}`);
    pageErrors.length = 0;
  });

  afterAll(async () => {
    await page?.close();
    await browser?.close();
    await workbench?.close();
    await model?.close();
    for (const dir of [home, runtimeHome, remotes, notARepo, frontend, backend]) await dir?.remove();
  });

  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

  test('settings: the model and key are saved; the key shows as "set", never its value', async () => {
    await page.goto(`${spa.url}/settings`);
    await page.getByText('Missing:').waitFor();
    await shot('settings-empty');
    await page.fill('input[name=model]', 'mock-model');
    await page.fill('input[name=base_url]', model.url);
    await page.fill('input[name=api_key]', 'sk-very-secret-42');
    await page.selectOption('select[name=default_runner]', 'keel');
    await page.getByRole('button', { name: '+ Add MCP server' }).click();
    const server = page.getByTestId('mcp-server');
    await server.getByLabel('Name').fill('everything');
    await server.getByLabel('Command').fill('npx');
    await server.getByLabel('Args (one per line)').fill('-y\n@modelcontextprotocol/server-everything');
    await server.getByLabel('Enabled').uncheck();
    // Enter in a text field submits the form.
    await page.press('input[name=model]', 'Enter');
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await expect.poll(() => page.getByTestId('api-key-state').textContent()).toBe('set');
    expect(await page.inputValue('input[name=api_key]')).toBe('');
    expect(await page.content()).not.toContain('sk-very-secret-42');
    await page.getByText('Ready: AI actions can run.').waitFor();
    const settings = (await (await fetch(`${spa.url}/api/settings`)).json()) as Record<string, unknown>;
    expect(settings).toMatchObject({ model: 'mock-model', base_url: model.url, api_key_set: true });
    // The service may answer more about each server (e.g. `env_set`, which secret env values it masks).
    expect(settings.mcp_servers).toMatchObject([
      {
        name: 'everything',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-everything'],
        env: {},
        enabled: false,
      },
    ]);
    // A reload shows the stored state, still without the key.
    await page.reload();
    await expect.poll(() => page.getByTestId('api-key-state').textContent()).toBe('set');
    expect(await page.inputValue('input[name=model]')).toBe('mock-model');
    await shot('settings');
  }, 60_000);

  test('projects: a non-repository path is refused next to its field; two real repositories make a project with knowledge', async () => {
    await page.goto(`${spa.url}/projects`);
    await page.getByText('No projects yet').waitFor();
    await page.fill('input[name=name]', 'Greeter');
    await page.fill('textarea[name=description]', 'A greeting app with a web frontend and an API backend.');
    await page.fill('input[name="repositories.0.path"]', frontend.path);
    await page.selectOption('select[name="repositories.0.type"]', 'frontend');
    await page.getByRole('button', { name: '+ Add repository' }).click();
    await page.fill('input[name="repositories.1.path"]', notARepo.path);
    await page.selectOption('select[name="repositories.1.type"]', 'backend');
    await page.getByRole('button', { name: 'Create project' }).click();
    const second = page.getByTestId('repository-row').nth(1);
    await second.getByRole('alert').filter({ hasText: 'NOT_A_GIT_REPOSITORY' }).waitFor();
    expect(await page.getByTestId('repository-row').nth(0).getByRole('alert').count()).toBe(0);
    expect(await second.locator('input[aria-invalid=true]').count()).toBe(1);
    await shot('projects-error');

    // The second repository is picked with the directory browser, from the folder that holds it.
    await page.fill('input[name="repositories.1.path"]', dirname(backend.path));
    await page.getByRole('button', { name: 'Browse for repository 2' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a repository folder' });
    await picker
      .getByTestId('picker-path')
      .filter({ hasText: dirname(backend.path) })
      .waitFor();
    await shot('project-directory-picker');
    await picker
      .locator('li', { hasText: basename(backend.path) })
      .getByRole('button', { name: 'Use this repository' })
      .click();
    expect(await page.inputValue('input[name="repositories.1.path"]')).toBe(backend.path);
    await page.press('input[name="repositories.1.path"]', 'Enter');
    await page.waitForURL(/\/projects\/[^/]+$/);
    projectId = page.url().split('/').at(-1) ?? '';
    await page.getByRole('heading', { name: 'Greeter' }).waitFor();
    await page.getByRole('rowheader', { name: new RegExp(basename(frontend.path)) }).waitFor();
    await page.getByRole('rowheader', { name: new RegExp(basename(backend.path)) }).waitFor();
    await shot('project-new');

    // Knowledge generation starts by itself with the project: no click (the button is only a retry).
    const failed = page.locator('.knowledge-table td', { has: page.locator('.badge-bad') });
    await failed.waitFor({ timeout: 60_000 });
    await expect.poll(() => page.locator('.knowledge-table .badge-ok').count(), { timeout: 60_000 }).toBe(7);
    await page.locator('.page-head .badge', { hasText: 'failed' }).waitFor({ timeout: 10_000 });
    await shot('project-knowledge-failed');
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => page.locator('.knowledge-table .badge-ok').count(), { timeout: 60_000 }).toBe(8);
    await page.locator('.page-head .badge', { hasText: 'ready' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Read' }).first().click();
    await page.locator('.markdown h1', { hasText: 'Structure' }).waitFor();
    await shot('project-knowledge');

    await page.goto(`${spa.url}/projects`);
    await page.getByTestId('project-list').getByRole('link', { name: 'Greeter' }).waitFor();
    await shot('projects');
  }, 90_000);

  test('tasks: created with an image, then taken through the five stages to a pushed branch', async () => {
    await page.goto(`${spa.url}/tasks/new?project=${projectId}`);
    await page.fill(
      'textarea[name=description]',
      'Greet the user\n\nShow a greeting in the web app and the API.',
    );
    await page.setInputFiles('input[type=file]', { name: 'sketch.png', mimeType: 'image/png', buffer: png });
    await page.locator('.thumbs img').waitFor();
    await shot('task-new');
    await page.getByRole('button', { name: 'Create task' }).click();
    await page.waitForURL((url) => /^\/tasks\/[^/]+$/.test(url.pathname) && url.pathname !== '/tasks/new');
    const taskId = page.url().split('/').at(-1) ?? '';
    const current = page.locator('.stepper [aria-current=step]');
    await expect.poll(() => current.textContent()).toContain('01');
    await page.getByRole('heading', { name: '01 · Initialization' }).waitFor();
    // The image shows as a thumbnail read from its own URL (the task carries only its info).
    const thumb = page.locator('.task-image img[alt="sketch.png"]');
    await thumb.waitFor();
    await expect
      .poll(() => thumb.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    await shot('task-01-created');

    // 01: initialization starts by itself (the project is READY); then confirm.
    const confirm = page.getByRole('button', { name: 'Confirm and start planning →' });
    await expect.poll(() => confirm.isEnabled(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => page.locator('.init-steps .badge-ok').count()).toBe(4);
    await shot('task-01-init');
    await confirm.click();

    // 02: the first draft starts by itself on confirm; refine by message (Enter sends), lock.
    await expect.poll(() => current.textContent()).toContain('02');
    await page.locator('.doc h1', { hasText: 'Plan' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Refine the plan').fill('Mention the tests');
    await page.getByLabel('Refine the plan').press('Enter');
    await page.locator('.t-assistant.streaming').waitFor({ timeout: 30_000 });
    await page.locator('.doc h1', { hasText: 'Plan v2' }).waitFor({ timeout: 30_000 });
    await page.locator('.session .t-thinking').first().waitFor();
    await shot('task-02-plan');
    await page.getByRole('button', { name: 'Lock plan →' }).click();

    // 03: the todo list, then start coding.
    await expect.poll(() => current.textContent(), { timeout: 30_000 }).toContain('03');
    await page.locator('.todo-list li', { hasText: 'Backend greeting' }).waitFor({ timeout: 30_000 });
    const start = page.getByRole('button', { name: 'Start coding →' });
    await expect.poll(() => start.isEnabled(), { timeout: 30_000 }).toBe(true);
    await shot('task-03-todos');
    await start.click();

    // 04: run all; the stage moves on to review by itself when the last todo is done.
    await expect.poll(() => current.textContent()).toContain('04');
    await page.getByRole('button', { name: 'Run all remaining' }).click();
    await expect.poll(() => current.textContent(), { timeout: 60_000 }).toContain('05');
    await page.locator('.stepper button', { hasText: 'Coding' }).click();
    await page.locator('.coding-detail .diff-file', { hasText: 'src/hello.js' }).waitFor({ timeout: 15_000 });
    await page.locator('.coding-detail .t-tool').first().waitFor();
    await shot('task-04-coding');

    // 05: the diff across both repositories, the commit message, the merge request.
    await page.locator('.stepper button', { hasText: 'Review' }).click();
    await page.locator('.diff-file', { hasText: 'src/greeting.js' }).waitFor({ timeout: 15_000 });
    await page.locator('.diff-file', { hasText: 'src/hello.js' }).waitFor();
    // The commit message is written by itself on entering review.
    await page
      .locator('.commit-message', { hasText: 'feat: greet in both apps' })
      .waitFor({ timeout: 30_000 });
    await shot('task-05-review');
    await page.getByRole('button', { name: 'Commit, push and open MR' }).click();
    await page.locator('.task-head .badge', { hasText: 'done' }).waitFor({ timeout: 30_000 });
    await page.getByRole('list', { name: 'Merge requests' }).waitFor();
    await shot('task-05-done');

    const task = (await (await fetch(`${spa.url}/api/tasks/${taskId}`)).json()) as {
      state: string;
      branch: string;
    };
    expect(task.state).toBe('DONE');
    const remote = join(remotes.path, `${basename(backend.path)}.git`);
    expect(git(remote, 'show', `${task.branch}:src/hello.js`)).toContain('hello');

    await page.goto(`${spa.url}/tasks`);
    await page.getByTestId('task-list').getByRole('link', { name: 'Greet the user' }).waitFor();
    await shot('tasks');

    // The same pages follow the system's dark scheme.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${spa.url}/tasks/${taskId}`);
    await page.locator('.diff-file', { hasText: 'src/hello.js' }).waitFor({ timeout: 15_000 });
    await shot('task-05-done-dark');
    await page.goto(`${spa.url}/settings`);
    await page.getByText('Ready: AI actions can run.').waitFor();
    await shot('settings-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  }, 180_000);
  test('the directory picker pages through 2,050 sub-folders to a repository past the first page', async () => {
    await using many = await createTempDir({ prefix: 'keel-wb-picker-' });
    for (let i = 0; i < 2050; i++) mkdirSync(join(many.path, `d-${String(i).padStart(4, '0')}`));
    mkdirSync(join(many.path, 'zz-repo', '.git'), { recursive: true });
    await page.goto(`${spa.url}/projects`);
    await page.fill('input[name="repositories.0.path"]', many.path);
    await page.getByRole('button', { name: 'Browse for repository 1' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a repository folder' });
    const pages = picker.getByTestId('picker-truncated');
    await pages.filter({ hasText: 'Entries 1–2,000 of 2,051' }).waitFor();
    expect(await picker.locator('li', { hasText: 'zz-repo' }).count()).toBe(0);
    await pages.getByRole('button', { name: 'Next →' }).click();
    await pages.filter({ hasText: 'Entries 2,001–2,051 of 2,051' }).waitFor();
    await picker
      .locator('li', { hasText: 'zz-repo' })
      .getByRole('button', { name: 'Use this repository' })
      .click();
    expect(await page.inputValue('input[name="repositories.0.path"]')).toBe(join(many.path, 'zz-repo'));
  }, 60_000);

  test('with WORKBENCH_AUTH_API_KEY the app asks for the key, refuses a wrong one, and remembers the right one', async () => {
    await using keyedHome = await createTempDir({ prefix: 'keel-wb-keyed-' });
    const keyed = await createWorkbench({
      home: keyedHome.path,
      env: workbenchEnv(keyedHome, runtimeHome, 'wb-secret-key'),
      spaDir: dist,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const base = await keyed.listen(0);
      const keyedPage = await context.newPage();
      await keyedPage.goto(`${base}/projects`);
      const prompt = keyedPage.getByRole('form', { name: 'Workbench API key' });
      await prompt.waitFor();
      await prompt.getByLabel('API key').fill('wrong');
      await prompt.getByLabel('API key').press('Enter');
      await prompt.getByRole('alert').filter({ hasText: 'AUTHENTICATION_FAILED' }).waitFor();
      await keyedPage.screenshot({ path: join(shots, 'key-prompt.png') });
      await prompt.getByLabel('API key').fill('wb-secret-key');
      await prompt.getByRole('button', { name: 'Continue' }).click();
      await prompt.waitFor({ state: 'detached' });
      await keyedPage.getByText('No projects yet').waitFor();
      await keyedPage.reload();
      await keyedPage.getByText('No projects yet').waitFor();
      expect(await prompt.count()).toBe(0);
    } finally {
      await context.close();
      await keyed.close();
    }
  }, 60_000);
});
