// What the browser tests share: building dist/ when stale, git in a temp repo, the workbench's environment,
// and a headless Debian Chromium whose page errors fail the test that caused them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import {
  createTempDir,
  createTempGitRepo,
  eventually,
  type ScriptedReply,
  startMockModel,
  type TempDir,
} from '@keel/testkit';
import { createWorkbench } from '@keel/workbench';
import { type Browser, chromium, type Page } from 'playwright-core';

/** The words that start the workbench reviewer's prompt (stage 05). */
export const reviewerPrompt = 'Review this change before it becomes a merge request';

export const executablePath = '/usr/bin/chromium';
export const hasChromium = existsSync(executablePath);
export const packageDir = join(import.meta.dirname, '..');
export const dist = join(packageDir, 'dist');
export const shots = join(packageDir, 'test', 'screenshots');
const viteBin = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');

/** The newest modification time under `dir` (ms). */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * What the apps bundle from other packages: Vite reads their published files (`dist/`, built by `npm run
 * build`), not their sources.
 */
const bundledDists = ['workbench-client', 'protocol'].map((name) => join(packageDir, '..', name, 'dist'));

/** Whether either app's built page is missing or older than the sources, build configs and bundled packages. */
function stale(): boolean {
  const pages = [join(dist, 'index.html'), join(dist, 'console', 'index.html')];
  const sources = Math.max(
    newest(join(packageDir, 'src')),
    ...bundledDists.filter((dir) => existsSync(dir)).map(newest),
    ...['index.html', 'vite.config.ts', 'vite.console.config.ts'].map(
      (name) => statSync(join(packageDir, name)).mtimeMs,
    ),
  );
  return !pages.every((page) => existsSync(page) && statSync(page).mtimeMs >= sources);
}

// Test files in other processes (the workbench's and keel-web's browser tests) may want a build at once.
const buildLock = join(tmpdir(), 'keel-workbench-web-build.lock');

/**
 * Builds dist/ (the workbench SPA, then keel-web's console into dist/console/) when either is missing or
 * older than the sources; a build takes a few seconds. Both at once: the SPA's build empties dist/. One
 * process builds at a time (a lock directory); the others wait for it, then find dist/ fresh.
 */
export async function ensureBuilt(): Promise<void> {
  if (!stale()) return;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(buildLock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock older than any build is a crashed builder's.
      const held = statSync(buildLock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 120_000) rmSync(buildLock, { force: true, recursive: true });
      if (Date.now() > deadline) throw new Error(`ensureBuilt: ${buildLock} stayed locked for 2 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    if (!stale()) return;
    // In its own process: inside vitest NODE_ENV is 'test', and Vite would bundle React's development build.
    for (const config of ['vite.config.ts', 'vite.console.config.ts']) {
      execFileSync(process.execPath, [viteBin, 'build', '--config', config, '--logLevel', 'warn'], {
        cwd: packageDir,
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: 'inherit',
      });
    }
  } finally {
    rmSync(buildLock, { force: true, recursive: true });
  }
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();
}

export function workbenchEnv(
  home: TempDir,
  runtimeHome: TempDir,
  authKey?: string,
): Record<string, string | undefined> {
  return {
    ...process.env,
    WORKBENCH_HOME: home.path,
    RUNTIME_HOME: runtimeHome.path,
    RUNTIME_MODEL: undefined,
    RUNTIME_MODEL_API_KEY: undefined,
    WORKBENCH_AUTH_API_KEY: authKey,
  };
}

/** Debian's Chromium, headless, with the flags this machine needs; `extraArgs` are added after them. */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

/**
 * A 1280 px page whose script errors are collected in `errors` (a test reports them with its own failure
 * rather than a timeout). The browser's own "Failed to load resource" lines for expected 4xx answers are not.
 */
export async function openPage(browser: Browser, errors: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(message.text());
    }
  });
  return page;
}

/** JSON from the service, failing loudly on anything but 2xx. */
export async function call<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** The knowledge layers' answers: every project of a browser test becomes READY with them. */
export const knowledgeReplies: ScriptedReply[] = [
  { when: { lastMessageIncludes: 'Describe the STRUCTURE' }, text: '# Structure', repeat: true },
  { when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' }, text: '# Flow', repeat: true },
  { when: { lastMessageIncludes: 'Describe the MODULES' }, text: '# Modules', repeat: true },
  { when: { lastMessageIncludes: 'Write a short INDEX' }, text: '# Index', repeat: true },
];

/**
 * What most browser tests start from: the real workbench in process (built SPA, temp WORKBENCH_HOME and
 * RUNTIME_HOME), a scripted model set in the settings (`settings` adds to them), one git repository
 * (`files`; with `bareRemote`, pushed to a bare origin on this machine) in a READY project, and a page of
 * Debian's Chromium whose script errors land in `pageErrors`. `close` undoes all of it.
 */
export async function startBrowserWorld(options: {
  prefix: string;
  files?: Record<string, string>;
  /** The model's replies; a function gets the repository's name (its folder in a task's workdir). */
  script?: ScriptedReply[] | ((repository: string) => ScriptedReply[]);
  /**
   * With `bareRemote`: the origin URL the repository names instead (e.g. https://github.com/acme/x.git),
   * once main is pushed to the bare repository. Pushes reach the bare one only where a `pushInsteadOf`
   * says so (the test sets it, with `bare`).
   */
  originUrl?: string;
  settings?: Record<string, unknown>;
  project?: { name: string; description?: string };
  bareRemote?: boolean;
  /** The models the scripted endpoint lists at `GET /models` (default: just `mock-model`). */
  models?: string[];
}) {
  await ensureBuilt();
  mkdirSync(shots, { recursive: true });
  const home = await createTempDir({ prefix: `keel-wb-${options.prefix}-` });
  const runtimeHome = await createTempDir({ prefix: `keel-wb-${options.prefix}-runtime-` });
  const remotes = await createTempDir({ prefix: `keel-wb-${options.prefix}-remotes-` });
  const repo = await createTempGitRepo({
    files: options.files ?? { 'package.json': '{"name":"web"}\n', 'src/app.js': 'export {};\n' },
  });
  let bare = '';
  if (options.bareRemote) {
    bare = join(remotes.path, `${repo.path.split('/').at(-1)}.git`);
    git(remotes.path, 'init', '-q', '--bare', '-b', 'main', bare);
    await repo.git('remote', 'add', 'origin', bare);
    await repo.git('push', '-q', 'origin', 'main');
    if (options.originUrl) await repo.git('remote', 'set-url', 'origin', options.originUrl);
  }
  const script =
    typeof options.script === 'function' ? options.script(basename(repo.path)) : (options.script ?? []);
  const model = await startMockModel({
    // Stage 05 opens with the reviewer: it finds nothing unless a test's script says otherwise.
    script: [
      ...(script.some((reply) => reply.when?.lastMessageIncludes?.includes(reviewerPrompt))
        ? []
        : [{ when: { lastMessageIncludes: reviewerPrompt }, text: '```json\n[]\n```' }]),
      ...knowledgeReplies,
      ...script,
    ],
    ...(options.models ? { models: options.models } : {}),
  });
  const workbench = await createWorkbench({
    home: home.path,
    env: workbenchEnv(home, runtimeHome),
    spaDir: dist,
  });
  const base = await workbench.listen(0);
  await call(base, 'PUT', '/api/settings', {
    model: 'mock-model',
    base_url: model.url,
    api_key: 'sk-test',
    default_runner: 'keel',
    ...options.settings,
  });
  const project = await call<{ id: string }>(base, 'POST', '/api/projects', {
    name: options.project?.name ?? 'Greeter',
    description: options.project?.description ?? 'A greeting app.',
    repositories: [{ path: repo.path, type: 'frontend' }],
  });
  await eventually(
    async () =>
      (await call<{ status: string }>(base, 'GET', `/api/projects/${project.id}/knowledge`)).status ===
      'READY',
    { timeoutMs: 60_000, what: 'the project knowledge to be ready' },
  );
  const browser = await launchBrowser();
  const pageErrors: string[] = [];
  const page = await openPage(browser, pageErrors);
  return {
    base,
    model,
    workbench,
    repo,
    bare,
    projectId: project.id,
    browser,
    page,
    pageErrors,
    async close() {
      await page.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await workbench.close();
      await model.close();
      for (const dir of [home, runtimeHome, remotes, repo]) await dir.remove();
    },
  };
}

export type BrowserWorld = Awaited<ReturnType<typeof startBrowserWorld>>;

interface TaskSteps {
  id: string;
  state: string;
  plan: string | null;
  init: { status: string };
}

/**
 * A task of the world's project taken through the API, one stage at a time, so a test can look at the page
 * between them: `initialized` (created, its init done by itself), `planned` (confirmed, first draft written),
 * `todosReady` (locked once the plan session is free, todos written).
 */
export function taskSteps(world: { base: string; projectId: string }) {
  const { base } = world;
  const get = (id: string) => call<TaskSteps>(base, 'GET', `/api/tasks/${id}`);
  return {
    get,
    async initialized(description: string): Promise<TaskSteps> {
      const task = await call<TaskSteps>(base, 'POST', '/api/tasks', {
        project_id: world.projectId,
        description,
      });
      await eventually(async () => (await get(task.id)).init.status === 'done', {
        timeoutMs: 30_000,
        what: 'init',
      });
      return get(task.id);
    },
    async planned(id: string): Promise<void> {
      await call(base, 'POST', `/api/tasks/${id}/confirm-init`);
      await eventually(async () => (await get(id)).plan !== null, { timeoutMs: 30_000, what: 'the plan' });
    },
    async todosReady(id: string): Promise<void> {
      // Locking waits for the plan session to be free (409 SESSION_BUSY just after the draft).
      await eventually(
        async () => {
          await call(base, 'POST', `/api/tasks/${id}/lock-plan`).catch(() => undefined);
          return (await get(id)).state === 'TODO_READY';
        },
        { timeoutMs: 30_000, what: 'the todo list' },
      );
    },
  };
}
