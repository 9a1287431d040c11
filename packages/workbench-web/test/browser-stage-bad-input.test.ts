// Bad input in the forms inside a task's stages, in Debian's Chromium against the REAL workbench service in
// process (the real Keel runner, a scripted model): the plan chat, the todo-edit chat, the commit-message
// chat and the merge request title. At each, the service's refusal shows next to the field (aria-invalid,
// described by an alert), the refused text stays in the box, nothing is sent or saved (checked through the
// API), and the corrected input then goes through and the flow continues to a pushed branch.
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  createTempDir,
  createTempGitRepo,
  eventually,
  type MockModel,
  type ScriptedReply,
  startMockModel,
  type TempDir,
  type TempGitRepo,
} from '@keel/testkit';
import { createWorkbench, type Workbench } from '@keel/workbench';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  call,
  dist,
  ensureBuilt,
  git,
  hasChromium,
  launchBrowser,
  openPage,
  shots,
  workbenchEnv,
} from './harness.ts';

/** The five-stage flow of browser.test.ts, plus answers to the corrected todo and commit-message edits. */
function script(frontend: string, backend: string): ScriptedReply[] {
  const knowledge: ScriptedReply[] = [];
  for (let i = 0; i < 2; i++) {
    knowledge.push(
      {
        when: { lastMessageIncludes: 'Describe the STRUCTURE' },
        text: '# Structure\n\n`src/` holds the code.',
      },
      {
        when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' },
        text: '# Business flow\n\nUsers greet.',
      },
      {
        when: { lastMessageIncludes: 'Describe the MODULES' },
        text: '# Modules\n\n- `app`: the entry point',
      },
      { when: { lastMessageIncludes: 'Write a short INDEX' }, text: '# Index\n\nA greeting app.' },
    );
  }
  return [
    ...knowledge,
    {
      when: { lastMessageIncludes: 'Write the technical plan' },
      text: '# Plan\n\nAdd a greeting to both repositories.',
    },
    {
      when: { lastMessageIncludes: 'Mention the tests' },
      text: '# Plan v2\n\nAdd a greeting to both repositories, **with tests**.',
    },
    {
      when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
      text:
        '```json\n[{"title": "Frontend greeting", "description": "Create src/greeting.js", "expected_output": "a module"},' +
        ' {"title": "Backend greeting", "description": "Create src/hello.js", "expected_output": "a module"}]\n```',
    },
    {
      when: { lastMessageIncludes: 'Adjust the todo list: Call the second one Backend hello' },
      text:
        '```json\n[{"title": "Frontend greeting", "description": "Create src/greeting.js", "expected_output": "a module"},' +
        ' {"title": "Backend hello", "description": "Create src/hello.js", "expected_output": "a module"}]\n```',
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
    {
      when: { lastMessageIncludes: 'Adjust the commit message: Say hello in the subject' },
      text: 'feat: say hello in both apps\n\nAdds a greeting module to the frontend and the backend.',
    },
  ];
}

interface Task {
  id: string;
  state: string;
  branch: string;
  plan: string | null;
  plan_session_id: string | null;
  review_session_id: string | null;
  commit_message: string | null;
  todos: { title: string }[];
  results: unknown[] | null;
}

interface LogPage {
  entries: { seq: number; event: { type: string; role?: string; content?: string } }[];
  next_cursor: number;
  has_more: boolean;
}

// One over the service's limit for a chat message (`messageBody` in the workbench's tasks/types.ts).
const tooLong = 'x'.repeat(50_001);

describe.skipIf(!hasChromium)('the workbench SPA: bad input in the task stages', () => {
  let browser: Browser;
  let page: Page;
  let workbench: Workbench;
  let model: MockModel;
  let base = '';
  let home: TempDir;
  let runtimeHome: TempDir;
  let remotes: TempDir;
  let frontend: TempGitRepo;
  let backend: TempGitRepo;
  let taskId = '';
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    mkdirSync(shots, { recursive: true });
    home = await createTempDir({ prefix: 'keel-wb-stage-bad-' });
    runtimeHome = await createTempDir({ prefix: 'keel-wb-stage-bad-runtime-' });
    remotes = await createTempDir({ prefix: 'keel-wb-stage-bad-remotes-' });
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
    workbench = await createWorkbench({
      home: home.path,
      env: workbenchEnv(home, runtimeHome),
      spaDir: dist,
    });
    base = await workbench.listen(0);
    // The settings, the project and its knowledge through the API: their forms have their own tests.
    await call(base, 'PUT', '/api/settings', {
      model: 'mock-model',
      base_url: model.url,
      api_key: 'sk-test',
      default_runner: 'keel',
    });
    const project = await call<{ id: string }>(base, 'POST', '/api/projects', {
      name: 'Greeter',
      repositories: [
        { path: frontend.path, type: 'frontend' },
        { path: backend.path, type: 'backend' },
      ],
    });
    // Its knowledge generation starts by itself with the project.
    await eventually(
      async () =>
        (await call<{ status: string }>(base, 'GET', `/api/projects/${project.id}/knowledge`)).status ===
        'READY',
      { timeoutMs: 60_000, what: 'the project knowledge to be ready' },
    );
    const task = await call<Task>(base, 'POST', '/api/tasks', {
      project_id: project.id,
      description: 'Greet the user\n\nShow a greeting in the web app and the API.',
    });
    taskId = task.id;
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
    await model?.close();
    for (const dir of [home, runtimeHome, remotes, frontend, backend]) await dir?.remove();
  });

  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const task = () => call<Task>(base, 'GET', `/api/tasks/${taskId}`);

  /** Every logged event of a session (its log pages followed to the end). */
  async function events(sessionId: string): Promise<LogPage['entries']> {
    const all: LogPage['entries'] = [];
    for (let after = 0; ; ) {
      const logs = await call<LogPage>(
        base,
        'GET',
        `/api/sessions/${sessionId}/logs?after=${after}&limit=1000`,
      );
      all.push(...logs.entries);
      if (!logs.has_more) return all;
      after = logs.next_cursor;
    }
  }
  const userMessages = async (sessionId: string) =>
    (await events(sessionId)).filter(
      (entry) => entry.event.type === 'message' && entry.event.role === 'user',
    );

  /** `input` is marked invalid and described by an alert in its own field or message box with `text`. */
  async function expectErrorBeside(input: Locator, code: string, text: string): Promise<void> {
    await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
    const noteId = await input.getAttribute('aria-describedby');
    expect(noteId).toBeTruthy();
    const note = page.locator(`[id="${noteId}"]`);
    expect(await note.getAttribute('role')).toBe('alert');
    const noteText = (await note.textContent()) ?? '';
    expect(noteText).toContain(code);
    expect(noteText).toContain(text);
    const box = input.locator(
      'xpath=ancestor::*[contains(concat(" ", @class, " "), " field ") or contains(concat(" ", @class, " "), " message-box ")][1]',
    );
    expect(await box.locator(`[id="${noteId}"]`).count()).toBe(1);
  }

  /**
   * Sends `tooLong` in the message box labelled `label` (filled at once: typing 50,001 characters takes
   * minutes), expects the service's refusal beside it and the text kept, then sends `good` instead.
   * `nothingSent` runs between the two, while the refusal shows.
   */
  async function refusedThenSent(label: string, good: string, nothingSent: () => Promise<void>) {
    const box = page.getByLabel(label);
    await expect.poll(() => box.isEnabled(), { timeout: 30_000 }).toBe(true);
    await box.fill(tooLong);
    await box.press('Enter');
    await expectErrorBeside(box, 'INVALID_PARAMS', 'message: Too big');
    expect(await box.inputValue()).toBe(tooLong);
    await nothingSent();
    await box.fill(good);
    await box.press('Enter');
    await expect.poll(() => box.getAttribute('aria-invalid')).toBeNull();
    await expect.poll(() => box.inputValue()).toBe('');
  }

  test('plan, todos and review: each refusal shows beside its field, nothing is sent, the fix goes through', async () => {
    await page.goto(`${base}/tasks/${taskId}`);
    const current = page.locator('.stepper [aria-current=step]');

    // 01: initialization starts by itself (the task was created on a READY project); then confirm.
    const confirm = page.getByRole('button', { name: 'Confirm and start planning →' });
    await expect.poll(() => confirm.isEnabled(), { timeout: 30_000 }).toBe(true);
    await confirm.click();

    // 02: the draft (started by itself on confirm), then a refinement too long for the service, then the
    // right one.
    await expect.poll(() => current.textContent()).toContain('02');
    await page.locator('.doc h1', { hasText: 'Plan' }).waitFor({ timeout: 30_000 });
    const drafted = await task();
    const planSession = drafted.plan_session_id ?? '';
    const planTurns = (await userMessages(planSession)).length;
    await refusedThenSent('Refine the plan', 'Mention the tests', async () => {
      await shot('bad-input-stage-plan');
      expect(await userMessages(planSession)).toHaveLength(planTurns);
      expect((await task()).plan).toBe(drafted.plan);
    });
    await page.locator('.doc h1', { hasText: 'Plan v2' }).waitFor({ timeout: 30_000 });
    expect((await userMessages(planSession)).at(-1)?.event.content).toContain('Mention the tests');
    await page.getByRole('button', { name: 'Lock plan →' }).click();

    // 03: the todo list, an adjustment too long, then the right one (it renames the second todo).
    await expect.poll(() => current.textContent(), { timeout: 30_000 }).toContain('03');
    await page.locator('.todo-list li', { hasText: 'Backend greeting' }).waitFor({ timeout: 30_000 });
    const start = page.getByRole('button', { name: 'Start coding →' });
    await expect.poll(() => start.isEnabled(), { timeout: 30_000 }).toBe(true);
    const todoTurns = (await userMessages(planSession)).length;
    await refusedThenSent('Adjust the list', 'Call the second one Backend hello', async () => {
      expect(await userMessages(planSession)).toHaveLength(todoTurns);
      const now = await task();
      expect(now.state).toBe('TODO_READY');
      expect(now.todos.map((todo) => todo.title)).toEqual(['Frontend greeting', 'Backend greeting']);
    });
    await page.locator('.todo-list li', { hasText: 'Backend hello' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => start.isEnabled(), { timeout: 30_000 }).toBe(true);
    await start.click();

    // 04: run all; the stage moves on to review by itself.
    await expect.poll(() => current.textContent()).toContain('04');
    await page.getByRole('button', { name: 'Run all remaining' }).click();
    await expect.poll(() => current.textContent(), { timeout: 60_000 }).toContain('05');

    // 05: the commit message (written by itself on entering review), an adjustment too long, then the
    // right one.
    await page
      .locator('.commit-message', { hasText: 'feat: greet in both apps' })
      .waitFor({ timeout: 30_000 });
    const written = await task();
    const reviewSession = written.review_session_id ?? '';
    const reviewTurns = (await userMessages(reviewSession)).length;
    await refusedThenSent('Adjust the commit message', 'Say hello in the subject', async () => {
      expect(await userMessages(reviewSession)).toHaveLength(reviewTurns);
      expect((await task()).commit_message).toBe(written.commit_message);
    });
    await page
      .locator('.commit-message', { hasText: 'feat: say hello in both apps' })
      .waitFor({ timeout: 30_000 });

    // The merge request title: 256 characters is one too many; nothing is committed or pushed.
    const title = page.locator('.submit-mr input[name=title]');
    const submit = page.getByRole('button', { name: 'Commit, push and open MR' });
    const longTitle = 't'.repeat(256);
    await title.fill(longTitle);
    await submit.click();
    await expectErrorBeside(title, 'INVALID_PARAMS', 'title: Too big');
    await shot('bad-input-stage-mr-title');
    expect(await title.inputValue()).toBe(longTitle);
    const refused = await task();
    expect(refused.state).toBe('REVIEWING');
    expect(refused.results).toBeNull();
    const remote = join(remotes.path, `${basename(backend.path)}.git`);
    expect(git(remote, 'branch', '--list', refused.branch)).toBe('');

    await title.fill('Say hello in both apps');
    await submit.click();
    await page.locator('.task-head .badge', { hasText: 'done' }).waitFor({ timeout: 30_000 });
    await page.getByRole('list', { name: 'Merge requests' }).waitFor();
    const done = await task();
    expect(done.state).toBe('DONE');
    expect(git(remote, 'show', `${done.branch}:src/hello.js`)).toContain('hello');
    expect(git(remote, 'log', '-1', '--format=%s', done.branch)).toBe('feat: say hello in both apps');
  }, 180_000);
});
