// What the service already answered and the SPA used to leave out, in Debian's Chromium against the REAL
// workbench service in process (the real Keel runner, a scripted model): an MCP server's health check from
// the settings (its tools, or why it failed, with secret env values masked), the PRD links a plan was
// written without, and the note of a push to a remote with no merge-request API (a bare local repository).
// Screenshots in test/screenshots/, named `honesty-*`.

import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { eventually, type TempGitRepo } from '@keel/testkit';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { scrub as scrubbed } from '../src/api/error-words.ts';
import { type BrowserWorld, call, git, hasChromium, shots, startBrowserWorld } from './harness.ts';

// The MCP reference server "everything", as the workbench's own MCP tests start it.
const everythingEntry = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

interface Task {
  id: string;
  state: string;
  branch: string;
  plan: string | null;
  commit_message: string | null;
  init: { status: string };
  prd_link_errors?: { url: string; message: string }[];
  results: { repository: string; merge_request?: { url: string | null; note?: string } }[] | null;
}

describe.skipIf(!hasChromium)('the workbench SPA: what the service answers, shown', () => {
  let world: BrowserWorld;
  let page: Page;
  let base = '';
  let repo: TempGitRepo;
  let bare = '';
  let projectId = '';

  beforeAll(async () => {
    world = await startBrowserWorld({
      prefix: 'honesty',
      // Its origin is a bare repository on this machine: no forge, so no merge request.
      bareRemote: true,
      // A PRD link to this machine is fetched (and fails on the closed port), not refused by the host rule.
      settings: { prd_links: { allow_private_network: true } },
      script: [
        {
          when: { lastMessageIncludes: 'Write the technical plan' },
          text: '# Plan\n\nAdd a greeting.',
          repeat: true,
        },
        {
          when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
          text: '```json\n[{"title": "Greeting", "description": "Create src/hello.js", "expected_output": "a module"}]\n```',
          repeat: true,
        },
        {
          when: { lastMessageIncludes: 'Write the commit message' },
          text: 'feat: greet\n\nAdds a greeting module.',
          repeat: true,
        },
      ],
    });
    ({ page, base, repo, bare, projectId } = world);
    // The todo writes into the repository's folder of the task's workdir, named after it.
    world.model.push(
      {
        when: { lastMessageIncludes: 'Do todo 1 of 1' },
        toolCalls: [
          {
            name: 'write_file',
            arguments: {
              path: `${basename(repo.path)}/src/hello.js`,
              content: 'export const hello = "hi";\n',
            },
          },
        ],
        repeat: true,
      },
      { when: { lastRole: 'tool' }, text: 'Wrote the greeting.', repeat: true },
    );
  }, 120_000);

  afterEach(() => {
    if (world.pageErrors.length > 0) console.error(`errors in the page:\n${world.pageErrors.join('\n')}`);
    expect(world.pageErrors).toEqual([]);
  });

  afterAll(async () => {
    await world?.close();
  });

  const getTask = (id: string) => call<Task>(base, 'GET', `/api/tasks/${id}`);
  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

  /** A task taken through the API to a plan draft. */
  async function plannedTask(description: string, prdLinks: string[] = []): Promise<Task> {
    const task = await call<Task>(base, 'POST', '/api/tasks', {
      project_id: projectId,
      description,
      prd_links: prdLinks,
    });
    await eventually(async () => (await getTask(task.id)).init.status === 'done', {
      timeoutMs: 30_000,
      what: 'the task initialization',
    });
    await call(base, 'POST', `/api/tasks/${task.id}/confirm-init`);
    await eventually(async () => (await getTask(task.id)).plan !== null, {
      timeoutMs: 30_000,
      what: 'the plan',
    });
    return getTask(task.id);
  }

  test("settings: Check shows a working MCP server's tools, and a broken one's error with secrets masked", async () => {
    const secret = 'tok-very-secret-7';
    // Disabled: they are here to be checked, not offered to the other tests' sessions.
    await call(base, 'PUT', '/api/settings', {
      mcp_servers: [
        { name: 'everything', command: process.execPath, args: [everythingEntry, 'stdio'], enabled: false },
        { name: 'missing', command: 'keel-no-such-program', args: [], enabled: false },
        {
          name: 'leaky',
          command: process.execPath,
          args: [
            '-e',
            "process.stderr.write('bad config: API_TOKEN=' + process.env.API_TOKEN + '\\n'); process.exit(3)",
          ],
          env: { API_TOKEN: secret, LOG_LEVEL: 'debug' },
          enabled: false,
        },
      ],
    });
    await page.goto(`${base}/settings`);
    const rows = page.getByTestId('mcp-server');
    await expect.poll(() => rows.count()).toBe(3);

    await page.getByRole('button', { name: 'Check MCP server everything' }).click();
    const healthy = rows.nth(0).getByTestId('mcp-health');
    await healthy.waitFor({ timeout: 30_000 });
    expect(await healthy.getAttribute('role')).toBe('status');
    expect(await healthy.textContent()).toMatch(/^Started · \d+ tools: .*\becho\b/);

    await page.getByRole('button', { name: 'Check MCP server missing' }).click();
    const missing = rows.nth(1).getByRole('alert');
    await missing.waitFor({ timeout: 30_000 });
    expect(await missing.textContent()).toContain("The MCP server 'missing' (keel-no-such-program)");

    await page.getByRole('button', { name: 'Check MCP server leaky' }).click();
    const leaky = rows.nth(2).getByRole('alert');
    await leaky.waitFor({ timeout: 30_000 });
    expect(await leaky.textContent()).toContain('bad config: API_TOKEN=••••');
    expect(await page.content()).not.toContain(secret);
    await shot('honesty-mcp-health');

    // A row not saved yet has nothing to start: no Check button, a word on saving first.
    await page.getByRole('button', { name: '+ Add MCP server' }).click();
    await rows.nth(3).getByLabel('Name').fill('new-one');
    await rows.nth(3).getByText('Save the settings to check this server.').waitFor();
    expect(await page.getByRole('button', { name: 'Check MCP server new-one' }).count()).toBe(0);
  }, 90_000);

  test('settings: the commit author is saved; a bad email is refused beside its field', async () => {
    await page.goto(`${base}/settings`);
    const name = page.getByLabel('Author name');
    const email = page.getByLabel('Author email');
    await name.fill('Ada Lovelace');
    // The browser's own check of type=email lets this through; the service's refuses it.
    await email.fill('ada@localhost');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    const note = page.locator(`[id="${await email.getAttribute('aria-describedby')}"]`);
    expect(await note.textContent()).toMatch(/email address/);
    expect((await call<{ git_identity: unknown }>(base, 'GET', '/api/settings')).git_identity).toEqual({
      name: null,
      email: null,
    });
    await email.fill('ada@example.com');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.screenshot({ path: join(shots, 'honesty-git-identity.png'), fullPage: true });
    expect((await call<{ git_identity: unknown }>(base, 'GET', '/api/settings')).git_identity).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
    // Cleared, each part is null again: the source repository's git, then "Keel Workbench", decides.
    await name.fill('');
    await email.fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(async () => (await call<{ git_identity: unknown }>(base, 'GET', '/api/settings')).git_identity)
      .toEqual({ name: null, email: null });
  });

  test('project: the checks of each repository are edited and saved; a repair bound out of range is held back', async () => {
    const name = basename(repo.path);
    await page.goto(`${base}/projects/${projectId}`);
    const form = page.getByRole('form', { name: 'Checks' });
    const box = form.locator(`textarea[name="checks.${name}"]`);
    // package.json has no scripts: nothing was found.
    expect(await box.inputValue()).toBe('');
    await box.fill('test: node --test\nnpm run lint');
    const repairs = form.getByLabel('Repair turns');
    // Out of range (0-5): the browser holds the form back before anything is sent.
    await repairs.fill('9');
    expect(
      await repairs.evaluate((input) => (input as { validity: { valid: boolean } }).validity.valid),
    ).toBe(false);
    await repairs.fill('1');
    await form.getByRole('button', { name: 'Save checks' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.screenshot({ path: join(shots, 'honesty-project-checks.png'), fullPage: true });
    const project = await call<{ repair_turns: number; repositories: { checks: unknown }[] }>(
      base,
      'GET',
      `/api/projects/${projectId}`,
    );
    expect(project.repair_turns).toBe(1);
    expect(project.repositories[0]?.checks).toEqual([
      { name: 'test', command: 'node --test', timeout_ms: 600_000 },
      { name: 'check', command: 'npm run lint', timeout_ms: 600_000 },
    ]);
    // Put back, for the other tests' todos.
    await call(base, 'PUT', `/api/projects/${projectId}`, { checks: { [name]: [] }, repair_turns: 2 });
  });

  test('task: a PRD link that could not be read is named, with why, once the plan is drafted', async () => {
    const link = 'http://127.0.0.1:9/prd';
    // With the defaults: a loopback address is refused, naming the setting that allows it.
    await call(base, 'PUT', '/api/settings', { prd_links: { allow_private_network: false } });
    const task = await plannedTask('Greet with the PRD', [link]);
    expect(task.prd_link_errors).toMatchObject([{ url: link }]);
    await page.goto(`${base}/tasks/${task.id}`);
    await page.locator('.doc h1', { hasText: 'Plan' }).waitFor({ timeout: 15_000 });
    const warning = page.getByTestId('prd-link-errors');
    await warning.waitFor();
    // A status, not an alert: it stays on every stage and is not read out again at each (issue #38, 12).
    expect(await warning.getAttribute('role')).toBe('status');
    const text = (await warning.textContent()) ?? '';
    expect(text).toContain('This PRD link could not be read, so the plan was written without it:');
    expect(text).toContain(`${link}: ${scrubbed(task.prd_link_errors?.[0]?.message ?? '')}`);
    expect(text).not.toContain('/api/settings');
    await shot('honesty-prd-link-errors');
    // The way to allow it is a Settings field, not API JSON.
    await warning.getByRole('link', { name: 'Settings → PRD links' }).click();
    const prd = page.getByRole('group', { name: 'PRD links' });
    await prd.getByLabel(/Allowed hosts/).fill('127.0.0.1');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Saved.' })
      .waitFor()
      .catch(async (error: unknown) => {
        await shot('honesty-prd-settings-failed');
        throw error;
      });
    const saved = await call<{ prd_links: { allowed_hosts: string[] } }>(base, 'GET', '/api/settings');
    expect(saved.prd_links).toEqual({ allow_private_network: false, allowed_hosts: ['127.0.0.1'] });
    // Put back, for the other tests.
    await call(base, 'PUT', '/api/settings', { prd_links: { allow_private_network: true } });

    // A task whose links were all read (none here) shows no warning.
    const clean = await plannedTask('Greet without a PRD');
    await page.goto(`${base}/tasks/${clean.id}`);
    await page.locator('.doc h1', { hasText: 'Plan' }).waitFor({ timeout: 15_000 });
    expect(await warning.count()).toBe(0);
  }, 90_000);

  test('review: a push to a bare repository says why there is no merge request', async () => {
    const planned = await plannedTask('Greet and submit');
    await call(base, 'POST', `/api/tasks/${planned.id}/lock-plan`);
    await eventually(async () => (await getTask(planned.id)).state === 'TODO_READY', {
      timeoutMs: 30_000,
      what: 'the todo list',
    });
    await call(base, 'POST', `/api/tasks/${planned.id}/start-coding`);
    await call(base, 'POST', `/api/tasks/${planned.id}/run-all`);
    await eventually(
      async () => {
        const task = await getTask(planned.id);
        return task.state === 'REVIEWING' && task.commit_message !== null;
      },
      { timeoutMs: 60_000, what: 'the review with its commit message' },
    );
    await page.goto(`${base}/tasks/${planned.id}`);
    await page.locator('.commit-message', { hasText: 'feat: greet' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Commit, push and open MR' }).click();
    await page.locator('.task-head .badge', { hasText: 'done' }).waitFor({ timeout: 30_000 });
    const note = page.getByRole('list', { name: 'Merge requests' }).getByTestId('mr-note');
    await note.waitFor();
    const task = await getTask(planned.id);
    const result = task.results?.[0];
    expect(result?.merge_request?.url).toBeNull();
    expect(await note.textContent()).toBe(result?.merge_request?.note);
    expect(await note.textContent()).toContain(`Pushed branch ${task.branch} to ${bare}`);
    expect(git(bare, 'show', `${task.branch}:src/hello.js`)).toContain('hi');
    await shot('honesty-mr-note');
  }, 120_000);
});
