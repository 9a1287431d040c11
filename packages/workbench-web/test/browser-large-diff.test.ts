// Large diffs in the review stage (issue #28), in Debian's Chromium against the REAL workbench service in
// process (the real Keel runner, a scripted model, a real git repository): a task taken through the API to
// review, then 1,500 files and a lock file written into its workspace (the review diff is the workspace
// against the base commit), a third of them past the service's 1 MiB patch cut. Every file is listed,
// collapsed, in a virtual list (scrolled through, it shows them all, never more than a screenful at once);
// the page stays under 1,000 DOM nodes; a file inside the patch opens from it, a file past the cut reads its
// own patch from GET /api/tasks/{id}/diff/file once. Then a small diff: its files start open, except a lock
// file. Screenshots: large-diff-*.png.
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

// The few DOM members the in-page code uses (this file is type-checked without the DOM's types).
interface PageElement {
  getBoundingClientRect(): { top: number; bottom: number };
  textContent: string | null;
}
interface ScrollBox extends PageElement {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
}
type Frames = { requestAnimationFrame(callback: () => void): number };

const fileCount = 1500;
/** `many/f-0000.txt`…: twenty lines of 50 characters each, about 1,100 bytes of patch per file. */
const manyPath = (index: number) => `many/f-${String(index).padStart(4, '0')}.txt`;
const manyContent = (index: number) =>
  `${Array.from({ length: 20 }, (_, line) => `file ${index} line ${line} `.padEnd(49, '.')).join('\n')}\n`;

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

  test('1,500 files past the 1 MiB cut: every one listed in a virtual list, a small DOM, a lock file collapsed, a file past the cut loaded when opened', async () => {
    mkdirSync(join(workspace, 'many'));
    for (let index = 0; index < fileCount; index++) {
      writeFileSync(join(workspace, manyPath(index)), manyContent(index));
    }
    const lock = { name: 'web', lockfileVersion: 3, packages: { '': { name: 'web' } } };
    writeFileSync(join(workspace, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
    const diff = await call<{ repositories: RepositoryDiff[] }>(base, 'GET', `/api/tasks/${taskId}/diff`);
    const repository = diff.repositories[0];
    const every = (repository?.files ?? []).map((file) => file.path);
    expect(every).toHaveLength(fileCount + 1);
    expect(every).toContain('package-lock.json');
    expect(repository?.truncated).toBe(true);
    const inPatch = repository?.patch.match(/^diff --git /gm)?.length ?? 0;
    expect(inPatch).toBeGreaterThan(500);
    expect(inPatch).toBeLessThan(fileCount - 100);
    const pastTheCut = manyPath(fileCount - 1);
    expect(repository?.patch).not.toContain(pastTheCut);

    const fileRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/diff/file')) fileRequests.push(request.url());
    });
    await page.goto(`${base}/tasks/${taskId}`);
    await toggle(every[0] ?? '').waitFor({ timeout: 30_000 });
    await page.getByText('files load their diff when opened').waitFor();
    expect(await page.locator('.diff-file-toggle[aria-expanded="true"]').count()).toBe(0);
    expect(await page.locator('.diff-file .diff').count()).toBe(0);
    // The old viewer put 500 rows in the page at once (over 2,000 nodes for them alone).
    const nodes = await domNodes();
    console.log(`DOM nodes, ${fileCount + 1} files: ${nodes}`);
    expect(nodes).toBeLessThan(1000);
    expect(await page.locator('.diff-file-toggle').count()).toBeLessThan(60);
    await page.locator('.diff-repo h4').evaluate((head: { scrollIntoView(): void }) => head.scrollIntoView());
    await shot('collapsed');

    // Scrolled from top to bottom, the box shows every file of the list, in its order, never many at once.
    const { seen, most } = await page.locator('.diff-scroll').evaluate(async (box: ScrollBox) => {
      const frame = () =>
        new Promise<void>((resolve) =>
          (globalThis as unknown as Frames).requestAnimationFrame(() => resolve()),
        );
      // The rows rendered cover the box's top edge: the list has caught up with the scroll.
      const caughtUp = () => {
        const top = box.getBoundingClientRect().top;
        return Array.from(box.querySelectorAll('.diff-row')).some((row) => {
          const rect = row.getBoundingClientRect();
          return rect.top <= top + 1 && rect.bottom > top;
        });
      };
      const order: string[] = [];
      let widest = 0;
      for (;;) {
        for (let frames = 0; !caughtUp(); frames++) {
          if (frames > 600) throw new Error(`the rows never caught up at ${box.scrollTop}`);
          await frame();
        }
        const names = Array.from(box.querySelectorAll('.diff-file-toggle')).map(
          (each) => each.textContent ?? '',
        );
        widest = Math.max(widest, names.length);
        for (const name of names) if (!order.includes(name)) order.push(name);
        if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1) break;
        box.scrollTop += Math.floor(box.clientHeight * 0.8);
        await frame();
      }
      return { seen: order, most: widest };
    });
    expect(seen).toEqual(every);
    expect(most).toBeLessThan(60);
    await shot('scrolled-to-the-end');

    // The lock file: listed, marked, collapsed.
    await page.getByLabel('Filter files by path').fill('package-lock');
    await expect.poll(() => page.locator('.diff-file-toggle').count()).toBe(1);
    expect(await toggle('package-lock.json').getAttribute('aria-expanded')).toBe('false');
    expect(await row('package-lock.json').textContent()).toContain('generated or lock file');

    // A file inside the patch: opened, its hunk from the patch at hand (no request).
    await page.getByLabel('Filter files by path').fill(manyPath(0));
    await toggle(manyPath(0)).click();
    await row(manyPath(0)).locator('.diff-code', { hasText: 'file 0 line 19' }).waitFor();
    expect(await row(manyPath(0)).locator('.diff-code-insert').count()).toBe(20);
    expect(fileRequests).toEqual([]);

    // A file past the cut: opened, its own patch is read from the service and shown.
    await page.getByLabel('Filter files by path').fill(pastTheCut);
    const answered = page.waitForResponse((response) => response.url().includes('/diff/file?'));
    await toggle(pastTheCut).click();
    expect((await answered).status()).toBe(200);
    await row(pastTheCut)
      .locator('.diff-code', { hasText: `file ${fileCount - 1} line 19` })
      .waitFor();
    expect(await row(pastTheCut).locator('.diff-code-insert').count()).toBe(20);
    expect(fileRequests).toHaveLength(1);
    expect(new URL(fileRequests[0] ?? '').searchParams.get('path')).toBe(pastTheCut);
    await shot('past-the-cut');

    // Closed and opened again: shown from what was loaded, not asked again.
    await toggle(pastTheCut).click();
    await toggle(pastTheCut).click();
    await row(pastTheCut)
      .locator('.diff-code', { hasText: `file ${fileCount - 1} line 19` })
      .waitFor();
    expect(fileRequests).toHaveLength(1);
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
