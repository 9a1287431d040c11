// The review of a large change in the browser (issue #28, "diffs a person can use"): a task brought to stage
// 05 through the API (the real Keel runner, a scripted model), then 5,000 files written into its workspace,
// so the review diff lists 5,000 files and its patch is cut at 1 MiB. Opened in Debian's Chromium (the SPA as
// served by the same service): the time from navigation to the diff's first file row on screen, and the DOM
// nodes of the page then. Reference in the same run: `GET /api/tasks/{id}/diff` alone, the request the page
// waits for. Each page figure is the median of a few loads after a warm-up one (the bundle cached).
//   first file visible: target < 1 s with 5,000 files.
// Also printed: when the page asked for the diff and had its answer (what follows is the page's own work).
// KEEL_BENCH_SPA_DIR: another build of the SPA to measure (e.g. an older commit's, built apart);
// KEEL_BENCH_VERBOSE=1: each load's requests on stderr; KEEL_BENCH_TRACE=file.json: a Chromium trace of the
// last load. `npm run build` first: the SPA measured is the built dist/.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, type ScriptedReply, startMockModel } from '@keel/testkit';
import { createWorkbench } from '@keel/workbench';
import { chromium } from 'playwright-core';
import { report } from './report.ts';

const fileCount = Number(process.env.KEEL_BENCH_DIFF_FILES ?? 5000);
const loads = 3;
// Another build of the SPA (e.g. of an older commit) to compare with: KEEL_BENCH_SPA_DIR=…/dist.
const spaDir =
  process.env.KEEL_BENCH_SPA_DIR ?? join(import.meta.dirname, '..', 'packages', 'workbench-web', 'dist');

/** ten lines of 50 characters: about 650 bytes of patch per file, so about 1,600 files fit the 1 MiB cut. */
const content = (index: number) =>
  `${Array.from({ length: 10 }, (_, line) => `file ${index} line ${line} `.padEnd(49, '.')).join('\n')}\n`;

const script: ScriptedReply[] = [
  {
    when: { lastMessageIncludes: 'Review this change before it becomes a merge request' },
    text: '```json\n[]\n```',
  },
  { when: { lastMessageIncludes: 'Describe the STRUCTURE' }, text: '# Structure', repeat: true },
  { when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' }, text: '# Flow', repeat: true },
  { when: { lastMessageIncludes: 'Describe the MODULES' }, text: '# Modules', repeat: true },
  { when: { lastMessageIncludes: 'Write a short INDEX' }, text: '# Index', repeat: true },
  { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nGenerate the files.' },
  {
    when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
    text: '```json\n[{"title": "Generate", "description": "Write the files", "expected_output": "files"}]\n```',
  },
  { when: { lastMessageIncludes: 'Do todo 1 of 1' }, text: 'Done.' },
  { when: { lastMessageIncludes: 'Write the commit message' }, text: 'feat: generate files' },
];

const home = await mkdtemp(join(tmpdir(), 'keel-bench-review-paint-'));
const repo = await createTempGitRepo({
  files: { 'package.json': '{"name":"web"}\n', 'src/app.js': 'export {};\n' },
});
const model = await startMockModel({ script });
const env: Record<string, string | undefined> = {
  ...process.env,
  WORKBENCH_HOME: join(home, 'wb'),
  RUNTIME_HOME: join(home, 'runtime'),
  RUNTIME_MODEL: undefined,
  RUNTIME_MODEL_API_KEY: undefined,
  WORKBENCH_AUTH_API_KEY: undefined,
};
const workbench = await createWorkbench({ home: join(home, 'wb'), env, spaDir });
const base = await workbench.listen(0);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});

// biome-ignore lint/suspicious/noExplicitAny: the bench reads a few fields of the answers
async function api(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function until<T>(check: () => Promise<T>, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

try {
  await api('PUT', '/api/settings', {
    model: 'mock-model',
    base_url: model.url,
    api_key: 'sk-bench',
    default_runner: 'keel',
  });
  const project = await api('POST', '/api/projects', {
    name: 'bench',
    repositories: [{ path: repo.path, type: 'frontend' }],
  });
  await until(async () => (await api('GET', `/api/projects/${project.id}`)).status === 'READY', 'READY');
  const task = await api('POST', '/api/tasks', { project_id: project.id, description: 'Generate' });
  const view = () => api('GET', `/api/tasks/${task.id}`);
  await api('POST', `/api/tasks/${task.id}/init`).catch(() => undefined);
  await until(async () => (await view()).init.status === 'done', 'init');
  await api('POST', `/api/tasks/${task.id}/confirm-init`);
  await api('POST', `/api/tasks/${task.id}/plan`).catch(() => undefined);
  await until(async () => (await view()).plan !== null, 'the plan');
  await api('POST', `/api/tasks/${task.id}/lock-plan`);
  await until(async () => (await view()).state === 'TODO_READY', 'the todos');
  await api('POST', `/api/tasks/${task.id}/start-coding`);
  await api('POST', `/api/tasks/${task.id}/run-all`);
  await until(async () => {
    const now = await view();
    return now.state === 'REVIEWING' && now.commit_message !== null && now.review?.status === 'done';
  }, 'the review with its commit message');
  const workspace: string = (await view()).workspaces[0].dir;
  await mkdir(join(workspace, 'many'));
  for (let index = 0; index < fileCount; index++) {
    await writeFile(join(workspace, 'many', `f-${String(index).padStart(4, '0')}.txt`), content(index));
  }

  // The reference: the diff request alone, as the page makes it.
  const diffTimes: number[] = [];
  let diff: { repositories: { files: unknown[]; patch: string; truncated?: boolean }[] } | undefined;
  for (let run = 0; run <= loads; run++) {
    const started = performance.now();
    diff = await api('GET', `/api/tasks/${task.id}/diff`);
    if (run > 0) diffTimes.push(performance.now() - started);
  }
  const repository = diff?.repositories[0];
  const details = {
    files: repository?.files.length,
    files_in_patch: repository?.patch.match(/^diff --git /gm)?.length ?? 0,
    patch_truncated: repository?.truncated === true,
    loads,
    spa: process.env.KEEL_BENCH_SPA_DIR ? 'KEEL_BENCH_SPA_DIR' : 'this checkout',
  };

  // The page: navigation start to the first file row in the DOM and visible, at an animation frame.
  const firstVisible: number[] = [];
  const nodes: number[] = [];
  const diffAnswered: number[] = [];
  const diffAsked: number[] = [];
  for (let run = 0; run <= loads; run++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const trace = process.env.KEEL_BENCH_TRACE && run === loads ? process.env.KEEL_BENCH_TRACE : undefined;
    if (trace) await browser.startTracing(page, { path: trace, screenshots: false });
    await page.goto(`${base}/tasks/${task.id}`, { waitUntil: 'commit' });
    // In-page code as text: this file is type-checked without the DOM's types.
    const handle = await page.waitForFunction(
      `(() => {
        const box = document.querySelector('.diff-file-toggle')?.getBoundingClientRect();
        return box && box.width > 0 && box.height > 0 ? performance.now() : false;
      })()`,
      undefined,
      { polling: 'raf', timeout: 120_000 },
    );
    const ms = (await handle.jsonValue()) as number;
    if (trace) await browser.stopTracing();
    const count = (await page.evaluate("document.querySelectorAll('*').length")) as number;
    // Each request's start and end since navigation; the diff's tell what is left is the page's own work.
    const requests = (await page.evaluate(
      `performance.getEntriesByType('resource').map((each) => ({
        path: new URL(each.name).pathname,
        start: each.fetchStart,
        end: each.responseEnd,
      }))`,
    )) as { path: string; start: number; end: number }[];
    const diffRequest = requests.find((each) => each.path.endsWith('/diff'));
    const [asked, answered] = [diffRequest?.start ?? Number.NaN, diffRequest?.end ?? Number.NaN];
    if (process.env.KEEL_BENCH_VERBOSE) {
      const lines = requests.map((each) => `${Math.round(each.start)}-${Math.round(each.end)} ${each.path}`);
      console.error([...lines, `${Math.round(ms)} first file row visible`].join('\n'));
    }
    if (run > 0) {
      firstVisible.push(ms);
      nodes.push(count);
      diffAnswered.push(answered);
      diffAsked.push(asked);
    }
    await page.close();
  }

  report({
    bench: 'workbench-review-paint',
    figure: `review of a ${fileCount}-file change: navigation to the first file row visible`,
    value: median(firstVisible),
    unit: 'ms',
    target: '< 1000 ms',
    reference: { name: 'GET /api/tasks/{id}/diff alone', value: median(diffTimes) },
    details: {
      ...details,
      diff_asked_in_page_ms: Math.round(median(diffAsked)),
      diff_answered_in_page_ms: Math.round(median(diffAnswered)),
    },
  });
  report({
    bench: 'workbench-review-paint',
    figure: `review of a ${fileCount}-file change: DOM nodes when the first file row shows`,
    value: median(nodes),
    unit: 'nodes',
    details: { ...details, runs: nodes },
  });
} finally {
  await browser.close();
  await workbench.close();
  await model.close();
  await repo.remove();
  await rm(home, { recursive: true, force: true });
}
