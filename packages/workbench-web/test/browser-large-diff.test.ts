// Large diffs in the review stage (issue #28), in Debian's Chromium against the REAL workbench service in
// process (the real Keel runner, a scripted model, a real git repository): a task taken through the API to
// review, then 3,000 files written into its workspace (the review diff is the workspace against the base
// commit), about half of them past the service's 1 MiB patch cut. Every file is listed, collapsed, in pages
// of 500; opening one shows its hunk, or for a file past the cut says so; the page stays a bounded number of
// DOM nodes. Then a small diff: its files start open, except a lock file. Screenshots: large-diff-*.png.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@keel/testkit';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type BrowserWorld, call, hasChromium, shots, startBrowserWorld } from './harness.ts';

interface Task {
  id: string;
  state: string;
  plan: string | null;
  init: { status: string };
  commit_message: string | null;
  workspaces: { dir: string }[];
}

interface RepositoryDiff {
  files: { path: string }[];
  patch: string;
  truncated?: boolean;
}

const fileCount = 3000;
/** `many/f-0000.txt`…: ten lines of 50 characters each, about 650 bytes of patch per file. */
const manyPath = (index: number) => `many/f-${String(index).padStart(4, '0')}.txt`;
const manyContent = (index: number) =>
  `${Array.from({ length: 10 }, (_, line) => `file ${index} line ${line} `.padEnd(49, '.')).join('\n')}\n`;

describe.skipIf(!hasChromium)('the workbench SPA: large diffs in review', () => {
  let world: BrowserWorld;
  let page: Page;
  let base = '';
  let taskId = '';
  let workspace = '';

  beforeAll(async () => {
    world = await startBrowserWorld({
      prefix: 'large-diff',
      project: { name: 'Generator', description: '' },
      script: [
        { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nGenerate the files.' },
        {
          when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
          text: '```json\n[{"title": "Generate", "description": "Write the files", "expected_output": "files"}]\n```',
        },
        { when: { lastMessageIncludes: 'Do todo 1 of 1' }, text: 'Done.' },
        { when: { lastMessageIncludes: 'Write the commit message' }, text: 'feat: generate files' },
      ],
    });
    ({ page, base } = world);
    const project = { id: world.projectId };
    // The task through the API to review: its pages have their own tests.
    taskId = (
      await call<Task>(base, 'POST', '/api/tasks', { project_id: project.id, description: 'Generate' })
    ).id;
    await call(base, 'POST', `/api/tasks/${taskId}/init`).catch(() => undefined);
    await eventually(async () => (await getTask()).init.status === 'done', {
      timeoutMs: 60_000,
      what: 'the task initialized',
    });
    await call(base, 'POST', `/api/tasks/${taskId}/confirm-init`);
    await call(base, 'POST', `/api/tasks/${taskId}/plan`).catch(() => undefined);
    await eventually(async () => (await getTask()).plan !== null, { timeoutMs: 60_000, what: 'the plan' });
    await call(base, 'POST', `/api/tasks/${taskId}/lock-plan`);
    await eventually(async () => (await getTask()).state === 'TODO_READY', {
      timeoutMs: 30_000,
      what: 'the todo list',
    });
    await call(base, 'POST', `/api/tasks/${taskId}/start-coding`);
    await call(base, 'POST', `/api/tasks/${taskId}/run-all`);
    await eventually(
      async () => {
        const task = await getTask();
        return task.state === 'REVIEWING' && task.commit_message !== null;
      },
      { timeoutMs: 60_000, what: 'the review with its commit message' },
    );
    workspace = (await getTask()).workspaces[0]?.dir ?? '';
    expect(workspace).not.toBe('');
  }, 180_000);

  afterEach(() => {
    if (world.pageErrors.length > 0) console.error(`errors in the page:\n${world.pageErrors.join('\n')}`);
    expect(world.pageErrors).toEqual([]);
  });

  afterAll(async () => {
    await world?.close();
  });

  function getTask(): Promise<Task> {
    return call<Task>(base, 'GET', `/api/tasks/${taskId}`);
  }

  const shot = (name: string) => page.screenshot({ path: join(shots, `large-diff-${name}.png`) });
  // Every element of the document, as `document.querySelectorAll('*').length` counts them.
  const domNodes = () => page.locator('*').count();
  const toggle = (path: string) => page.getByRole('button', { name: path, exact: true });
  const row = (path: string) => page.locator('.diff-file').filter({ has: toggle(path) });

  test('3,000 files: every one listed, collapsed, in pages of 500; one opened shows its hunk; a bounded DOM', async () => {
    mkdirSync(join(workspace, 'many'));
    for (let index = 0; index < fileCount; index++) {
      writeFileSync(join(workspace, manyPath(index)), manyContent(index));
    }
    const diff = await call<{ repositories: RepositoryDiff[] }>(base, 'GET', `/api/tasks/${taskId}/diff`);
    const repository = diff.repositories[0];
    expect(repository?.files).toHaveLength(fileCount);
    expect(repository?.truncated).toBe(true);
    const inPatch = repository?.patch.match(/^diff --git /gm)?.length ?? 0;
    expect(inPatch).toBeGreaterThan(1000);
    expect(inPatch).toBeLessThan(fileCount);

    await page.goto(`${base}/tasks/${taskId}`);
    await toggle(manyPath(0)).waitFor({ timeout: 30_000 });
    const toggles = page.locator('.diff-file-toggle');
    expect(await toggles.count()).toBe(500);
    expect(await page.locator('.diff-file-toggle[aria-expanded="true"]').count()).toBe(0);
    expect(await page.locator('.diff-file .diff').count()).toBe(0);
    const firstPage = await domNodes();
    console.log(`DOM nodes, 3,000 files, first page of 500: ${firstPage}`);
    expect(firstPage).toBeLessThan(5000);
    await page.getByText('The patch is larger than the service sends (1 MiB)').waitFor();
    await shot('collapsed');

    // "Show 500 more files" until every file is listed.
    const more = page.getByRole('button', { name: /^Show \d+ more files/ });
    for (let shown = 500; shown < fileCount; shown += 500) {
      await more.click();
      await expect.poll(() => toggles.count()).toBe(Math.min(shown + 500, fileCount));
    }
    expect(await more.count()).toBe(0);
    const listed = await toggles.allTextContents();
    expect(listed).toEqual(Array.from({ length: fileCount }, (_, index) => manyPath(index)));
    expect(await page.locator('.diff-file-toggle[aria-expanded="true"]').count()).toBe(0);
    const everyRow = await domNodes();
    console.log(`DOM nodes, 3,000 files, all listed: ${everyRow}`);
    expect(everyRow).toBeLessThan(15_000);
    await expect.poll(() => row(manyPath(fileCount - 1)).textContent()).toContain('added');
    expect(await row(manyPath(fileCount - 1)).textContent()).toContain('+10 −0');

    // A file inside the patch: opened, it shows its hunk's lines; closed again, they go.
    const first = manyPath(0);
    await toggle(first).click();
    expect(await toggle(first).getAttribute('aria-expanded')).toBe('true');
    await row(first).locator('.diff-code', { hasText: 'file 0 line 9' }).waitFor();
    expect(await row(first).locator('.diff-code-insert').count()).toBe(10);
    await page.locator('.diff-repo h4').scrollIntoViewIfNeeded();
    await shot('opened');
    await toggle(first).click();
    expect(await toggle(first).getAttribute('aria-expanded')).toBe('false');
    expect(await row(first).locator('.diff').count()).toBe(0);

    // A file past the cut: opened, it says why there is no diff and how to see it.
    const last = manyPath(fileCount - 1);
    await toggle(last).click();
    expect(await toggle(last).getAttribute('aria-expanded')).toBe('true');
    await row(last).getByText('Diff not shown: the patch is larger than the service sends').waitFor();
    expect(await row(last).locator('code').textContent()).toMatch(
      /^git diff [0-9a-f]{12} -- many\/f-2999\.txt$/,
    );
    await row(last).scrollIntoViewIfNeeded();
    await shot('past-the-cut');
  }, 120_000);

  test('a small diff: its files start open, a lock file collapsed', async () => {
    rmSync(join(workspace, 'many'), { recursive: true, force: true });
    writeFileSync(join(workspace, 'src', 'app.js'), 'export const app = "greeter";\n');
    const lock = { name: 'web', lockfileVersion: 3, packages: { '': { name: 'web' } } };
    writeFileSync(join(workspace, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);

    await page.goto(`${base}/tasks/${taskId}`);
    await toggle('src/app.js').waitFor({ timeout: 30_000 });
    expect(await page.locator('.diff-file-toggle').count()).toBe(2);
    expect(await toggle('src/app.js').getAttribute('aria-expanded')).toBe('true');
    await row('src/app.js').locator('.diff-code-insert', { hasText: 'greeter' }).waitFor();
    expect(await toggle('package-lock.json').getAttribute('aria-expanded')).toBe('false');
    expect(await row('package-lock.json').locator('.diff').count()).toBe(0);
    expect(await row('package-lock.json').textContent()).toContain('generated or lock file');
    await shot('small');

    await toggle('package-lock.json').click();
    await row('package-lock.json').locator('.diff-code-insert', { hasText: 'lockfileVersion' }).waitFor();
    expect(await toggle('package-lock.json').getAttribute('aria-expanded')).toBe('true');
  }, 60_000);
});
