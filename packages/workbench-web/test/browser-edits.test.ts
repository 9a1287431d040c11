// The hand edits in Debian's Chromium against the REAL workbench service in process (the real Keel runner,
// a scripted model, a real git repository): plan.md edited by hand (a new version, its diff with the one
// before), the todo list (add, edit in place, move, remove), the commit message with the merge request's
// title, and Settings' "Test connection" with the form's unsaved values (a working endpoint, one nobody
// listens on, an Ollama server with each model's window and one without tools). Each edit is checked
// through the API too. Screenshots: test/screenshots/edits-*.png.
import { createServer } from 'node:net';
import { basename, join } from 'node:path';
import {
  eventually,
  type MockModel,
  type ScriptedReply,
  startMockModel,
  type TempGitRepo,
} from '@keel/testkit';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type BrowserWorld, call, hasChromium, shots, startBrowserWorld } from './harness.ts';

/** Knowledge, the first plan draft, the todo list, two coding turns and the commit message. */
function script(repository: string): ScriptedReply[] {
  return [
    {
      when: { lastMessageIncludes: 'Describe the STRUCTURE' },
      text: '# Structure\n\n`src/` holds the code.',
    },
    { when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' }, text: '# Business flow\n\nUsers greet.' },
    { when: { lastMessageIncludes: 'Describe the MODULES' }, text: '# Modules\n\n- `app`: the entry point' },
    { when: { lastMessageIncludes: 'Write a short INDEX' }, text: '# Index\n\nA greeting app.' },
    {
      when: { lastMessageIncludes: 'Write the technical plan' },
      text: '# Plan\n\nAdd a greeting.\n\n- `src/greeting.js`',
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
          arguments: { path: `${repository}/src/greeting.js`, content: 'export const greeting = "hi";\n' },
        },
      ],
    },
    { when: { lastRole: 'tool' }, text: 'Wrote the greeting.' },
    { when: { lastMessageIncludes: 'Do todo 2 of 2' }, text: 'The greeting needs no further tests.' },
    {
      when: { lastMessageIncludes: 'Write the commit message' },
      text: 'feat: greet\n\nAdds a greeting module.',
    },
  ];
}

interface Todo {
  id: string;
  title: string;
  description: string;
  position: number;
}

interface Task {
  id: string;
  state: string;
  plan: string | null;
  plan_session_id: string | null;
  review_session_id: string | null;
  init: { status: string };
  commit_message: string | null;
  mr_title: string | null;
  mr_description: string | null;
  todos: Todo[];
}

interface Session {
  status: string;
}

/** A port nothing listens on: one the system gave out and that was closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe.skipIf(!hasChromium)('the workbench SPA: hand edits and the connection test', () => {
  let world: BrowserWorld;
  let page: Page;
  let model: MockModel;
  let base = '';
  let repo: TempGitRepo;
  let taskId = '';

  beforeAll(async () => {
    world = await startBrowserWorld({ prefix: 'edits', models: ['mock-model', 'mock-large'] });
    ({ page, model, base, repo } = world);
    // The replies that name the repository's folder, now that it exists.
    model.push(...script(basename(repo.path)));
    const project = { id: world.projectId };
    // The task, its initialization and first plan draft through the API (and by themselves): their pages
    // have their own tests.
    const task = await call<Task>(base, 'POST', '/api/tasks', {
      project_id: project.id,
      description: 'Greet the user',
    });
    taskId = task.id;
    await eventually(
      async () => (await call<Task>(base, 'GET', `/api/tasks/${taskId}`)).init.status === 'done',
      {
        timeoutMs: 60_000,
        what: 'the task initialized',
      },
    );
    await call(base, 'POST', `/api/tasks/${taskId}/confirm-init`);
    await eventually(
      async () => {
        const now = await call<Task>(base, 'GET', `/api/tasks/${taskId}`);
        if (now.plan === null || now.plan_session_id === null) return false;
        const session = await call<Session>(base, 'GET', `/api/sessions/${now.plan_session_id}/status`);
        return session.status === 'succeeded';
      },
      { timeoutMs: 60_000, what: 'the first plan draft' },
    );
  }, 180_000);

  afterEach(() => {
    if (world.pageErrors.length > 0) console.error(`errors in the page:\n${world.pageErrors.join('\n')}`);
    expect(world.pageErrors).toEqual([]);
  });

  afterAll(async () => {
    await world?.close();
  });

  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const task = () => call<Task>(base, 'GET', `/api/tasks/${taskId}`);
  const current = () => page.locator('.stepper [aria-current=step]');

  test('the plan: edited by hand, saved as a new version whose diff with the one before shows the change', async () => {
    await page.goto(`${base}/tasks/${taskId}`);
    await page.locator('.doc h1', { hasText: 'Plan' }).waitFor();
    const versions = page.getByRole('list', { name: 'Plan versions' });
    await versions.getByRole('listitem').filter({ hasText: 'v1' }).waitFor();

    await page.getByRole('button', { name: 'Edit plan' }).click();
    const editor = page.getByRole('form', { name: 'Edit plan.md' });
    const content = editor.locator('textarea[name=content]');
    expect(await content.inputValue()).toContain('Add a greeting.');
    await content.fill(
      '# Plan\n\nAdd a greeting, and a test for it.\n\n- `src/greeting.js`\n- `test/greeting.test.js`',
    );
    await shot('edits-plan-editing');
    await editor.getByRole('button', { name: 'Save plan' }).click();
    await editor.waitFor({ state: 'detached' });
    await page.locator('.doc', { hasText: 'and a test for it' }).waitFor();

    // A new version, by hand, with its diff against v1.
    const second = versions.getByRole('listitem').filter({ hasText: 'v2' });
    await second.filter({ hasText: 'edited by hand' }).waitFor();
    await second.getByRole('button', { name: 'Diff of v2 with the previous version' }).click();
    const diff = page.getByRole('region', { name: 'plan.md, v1 to v2' });
    await diff.locator('.patch-del', { hasText: '-Add a greeting.' }).waitFor();
    await diff.locator('.patch-add', { hasText: '+Add a greeting, and a test for it.' }).waitFor();
    await diff.locator('.patch-add', { hasText: '+- `test/greeting.test.js`' }).waitFor();
    await shot('edits-plan-versions');

    const saved = await task();
    expect(saved.plan).toContain('and a test for it');
    const listed = await call<{ versions: { version: number; source: string }[] }>(
      base,
      'GET',
      `/api/tasks/${taskId}/plan/versions`,
    );
    expect(listed.versions.map((version) => [version.version, version.source])).toEqual([
      [1, 'ai'],
      [2, 'user'],
    ]);
  }, 60_000);

  test('the todo list: a todo added, one edited in place, one moved up, one removed', async () => {
    await page.getByRole('button', { name: 'Lock plan →' }).click();
    await expect.poll(() => current().textContent(), { timeout: 30_000 }).toContain('03');
    const items = page.locator('.todo-list > li');
    await items.filter({ hasText: 'Backend greeting' }).waitFor({ timeout: 30_000 });
    const add = page.getByRole('form', { name: 'Add a todo' });
    await add.waitFor({ timeout: 30_000 });

    // Added at the end.
    await add.locator('input[name=title]').fill('Write tests');
    await add.locator('textarea[name=description]').fill('Cover src/greeting.js');
    await add.getByRole('button', { name: 'Add todo' }).click();
    await items.filter({ hasText: 'Write tests' }).waitFor();
    await expect.poll(() => add.locator('input[name=title]').inputValue()).toBe('');
    await expect
      .poll(async () => (await task()).todos.map((todo) => todo.title))
      .toEqual(['Frontend greeting', 'Backend greeting', 'Write tests']);

    // Edited in place: the title and description.
    await items
      .filter({ hasText: 'Frontend greeting' })
      .getByRole('button', { name: 'Edit: Frontend greeting' })
      .click();
    const edit = page.getByRole('form', { name: 'Edit todo 1' });
    await edit.locator('input[name=title]').fill('Greeting module');
    await edit.locator('textarea[name=description]').fill('Create src/greeting.js exporting greeting');
    await shot('edits-todo-editing');
    await edit.getByRole('button', { name: 'Save todo' }).click();
    await edit.waitFor({ state: 'detached' });
    await items.nth(0).filter({ hasText: 'Greeting module' }).waitFor();

    // Moved up one place, then the backend todo removed.
    await page.getByRole('button', { name: 'Move up: Write tests' }).click();
    await items.nth(1).filter({ hasText: 'Write tests' }).waitFor();
    await page.getByRole('button', { name: 'Remove: Backend greeting' }).click();
    await items.filter({ hasText: 'Backend greeting' }).waitFor({ state: 'detached' });
    await expect.poll(() => items.count()).toBe(2);
    await shot('edits-todos');

    const now = await task();
    expect(now.state).toBe('TODO_READY');
    expect(now.todos.map((todo) => [todo.position, todo.title])).toEqual([
      [1, 'Greeting module'],
      [2, 'Write tests'],
    ]);
    expect(now.todos[0]?.description).toBe('Create src/greeting.js exporting greeting');
  }, 90_000);

  test('the commit message and the merge request title, edited by hand in review', async () => {
    const start = page.getByRole('button', { name: 'Start coding →' });
    await expect.poll(() => start.isEnabled(), { timeout: 30_000 }).toBe(true);
    await start.click();
    await expect.poll(() => current().textContent()).toContain('04');
    await page.getByRole('button', { name: 'Run all remaining' }).click();
    await expect.poll(() => current().textContent(), { timeout: 60_000 }).toContain('05');
    // Written by itself on entering review.
    await page.locator('.commit-message', { hasText: 'feat: greet' }).waitFor({ timeout: 30_000 });

    const editButton = page.getByRole('button', { name: 'Edit commit message' });
    await expect.poll(() => editButton.isVisible(), { timeout: 30_000 }).toBe(true);
    await editButton.click();
    const form = page.getByRole('form', { name: 'Edit the commit message' });
    const message = form.locator('textarea[name=commit_message]');
    expect(await message.inputValue()).toContain('feat: greet');
    await message.fill('feat: greet the user\n\nAdds src/greeting.js with a friendly greeting.');
    await form.locator('input[name=mr_title]').fill('Greet the user on the home page');
    await shot('edits-commit-editing');
    await form.getByRole('button', { name: 'Save commit message' }).click();
    await form.waitFor({ state: 'detached' });
    await page.locator('.commit-message', { hasText: 'feat: greet the user' }).waitFor();
    await page.getByRole('definition').filter({ hasText: 'Greet the user on the home page' }).waitFor();
    await shot('edits-review');

    const now = await task();
    expect(now.state).toBe('REVIEWING');
    expect(now.commit_message).toBe('feat: greet the user\n\nAdds src/greeting.js with a friendly greeting.');
    expect(now.mr_title).toBe('Greet the user on the home page');
    expect(now.mr_description).toBeNull();
  }, 120_000);

  test('settings: "Test connection" tries the unsaved base URL: the models of a working one, the error of a closed port', async () => {
    await page.goto(`${base}/settings`);
    const form = page.getByRole('form', { name: 'Settings' });
    await form.waitFor();
    const testButton = form.getByRole('button', { name: 'Test connection' });
    const result = form.getByTestId('connection-result');

    // The saved endpoint answers with its models.
    await testButton.click();
    await result.filter({ hasText: 'Connected' }).waitFor();
    await result.getByRole('list', { name: 'Models offered' }).getByText('mock-large').waitFor();
    await shot('edits-connection-ok');
    // A model of the list is picked with a click (issue #38, point 13): it goes into the field, marked.
    const pick = result.getByRole('button', { name: 'mock-large' });
    expect(await pick.getAttribute('aria-pressed')).toBe('false');
    await pick.click();
    expect(await form.locator('input[name=model]').inputValue()).toBe('mock-large');
    expect(await pick.getAttribute('aria-pressed')).toBe('true');
    await form.locator('input[name=model]').fill('mock-model');

    // An unsaved base URL nobody listens on: the error in words, and nothing saved.
    const port = await closedPort();
    const unreachable = `http://127.0.0.1:${port}/v1`;
    await form.locator('input[name=base_url]').fill(unreachable);
    await testButton.click();
    const failure = result.filter({ hasText: 'Connection failed.' });
    await failure.waitFor();
    expect(await failure.getAttribute('role')).toBe('alert');
    const text = (await failure.textContent()) ?? '';
    expect(text).toContain(`Could not reach ${unreachable}/models`);
    expect(text).toContain('check base_url and that the server runs');
    await shot('edits-connection-failed');

    // An Ollama server (scripted as Ollama answers): its name, each model's window, and a model without tools.
    const ollama = await startMockModel({ profile: 'ollama', models: ['qwen2.5-coder:7b', 'gemma3:1b'] });
    try {
      await form.locator('input[name=base_url]').fill(ollama.url);
      await testButton.click();
      const connected = result.filter({ hasText: 'Connected' });
      await connected.filter({ hasText: '(Ollama)' }).waitFor();
      const models = connected.getByRole('list', { name: 'Models offered' });
      expect(
        await models.getByRole('listitem').filter({ hasText: 'qwen2.5-coder:7b' }).textContent(),
      ).toContain('128k context');
      const gemma = models.getByRole('listitem').filter({ hasText: 'gemma3:1b' });
      expect(await gemma.textContent()).toContain('no tools');
      await shot('edits-connection-ollama');
    } finally {
      await ollama.close();
    }
    await form.locator('input[name=base_url]').fill(model.url);
    const settings = await call<{ base_url: string; api_key_set: boolean }>(base, 'GET', '/api/settings');
    expect(settings.base_url).toBe(model.url);
    expect(settings.api_key_set).toBe(true);
  }, 60_000);
});
