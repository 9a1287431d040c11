// The workbench on a repository of real size (issue #28 item 6): the service in process, over HTTP, on a
// synthetic monorepo (100,000 tracked files in nested folders, and a 20,000-file `node_modules` listed in
// .gitignore), with the scripted model answering the project's knowledge. Each figure has its reference
// measured in the same run:
//   - task init (stage 01) to a task whose init is done  ↔  `git worktree add` of the same commit
//   - `GET /api/directories` of `node_modules` (20,000 sub-folders), slowest /health meanwhile  ↔  readdir
//   - `GET /api/tasks/{id}/diff` after a change touching 5,000 files: time, size, slowest /health
//     ↔  `git diff --stat` and `git diff` of the same change in the same workspace
//   - `DELETE /api/tasks/{id}` of that task  ↔  `rm -rf` of the reference worktree (the same files); the
//     slowest /health meanwhile  ↔  /health alone, before
//   - the service's RSS at start, after the flow, and its peak
// Options: --files N (tracked files, default 100,000), --ignored N (default 20,000), --changed N (default
// 5,000), --repo PATH (a real repository instead: its first N tracked files are changed in the task's
// workspace only, the reference worktree is added to it and pruned after; the directories
// figure then lists a folder of --ignored sub-folders made in the temp dir), --cache DIR (where the synthetic
// repository is built once and reused; default /tmp/keel-bench-scale-<files>), --only-diff (skip the
// directories and DELETE figures), --diff-runs N (default 1: the diff N times, each after the same files were
// changed again, so that every run sees a change git has not hashed yet).
//   targets: init within 2× of `git worktree add`; no request holds /health for more than 50 ms.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { type ScriptedReply, startMockModel } from '@keel/testkit';
import { createWorkbench } from '@keel/workbench';
import { createRunnerRegistry } from '../packages/workbench/src/runners/index.ts';
import { healthWhile } from './health-probe.ts';
import { report } from './report.ts';

const { values: args } = parseArgs({
  options: {
    files: { type: 'string', default: '100000' },
    ignored: { type: 'string', default: '20000' },
    changed: { type: 'string', default: '5000' },
    repo: { type: 'string' },
    cache: { type: 'string' },
    build: { type: 'boolean', default: false },
    'only-diff': { type: 'boolean', default: false },
    'diff-runs': { type: 'string', default: '1' },
  },
});
const files = Number(args.files);
const ignored = Number(args.ignored);
const changed = Number(args.changed);
const filesPerFolder = 50;
const foldersPerPackage = 10;
const bench = 'workbench-scale';

const git = (cwd: string, ...argv: string[]) =>
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', '-c', 'gc.auto=0', ...argv], {
    cwd,
    encoding: 'utf8',
    stdio: 'pipe',
    maxBuffer: 1024 * 1024 * 1024,
  });

/** `node_modules/dep-<i>/index.js` × count: what an install leaves, ignored by git. */
async function writeIgnored(root: string, count: number): Promise<void> {
  for (let start = 0; start < count; start += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, count - start) }, async (_, i) => {
        const dir = join(root, 'node_modules', `dep-${start + i}`);
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, 'index.js'), `module.exports = ${start + i};\n`);
      }),
    );
  }
}

/** The synthetic monorepo: packages/pkg<p>/src/mod<m>/file<f>.ts, committed and packed, + node_modules. */
async function buildRepository(repo: string): Promise<void> {
  await rm(repo, { recursive: true, force: true });
  await mkdir(repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  await writeFile(join(repo, '.gitignore'), 'node_modules/\n');
  await writeFile(join(repo, 'README.md'), '# A large monorepo\n');
  const perPackage = filesPerFolder * foldersPerPackage;
  for (let start = 0; start < files; start += filesPerFolder) {
    const n = start / filesPerFolder;
    const folder = join(
      repo,
      'packages',
      `pkg${Math.floor(start / perPackage)}`,
      'src',
      `mod${n % foldersPerPackage}`,
    );
    await mkdir(folder, { recursive: true });
    await Promise.all(
      Array.from({ length: Math.min(filesPerFolder, files - start) }, (_, i) =>
        writeFile(join(folder, `file${i}.ts`), `export const value${start + i} = ${start + i};\n`),
      ),
    );
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'a large repository');
  git(repo, 'gc', '-q');
  await writeIgnored(repo, ignored);
  await writeFile(join(repo, '.git', 'bench-ready'), `${files} ${ignored}\n`);
}

if (args.build) {
  // The child that builds the repository: its memory never counts in the service's peak RSS.
  await buildRepository(args.cache!);
  process.exit(0);
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const peakMb = () => process.resourceUsage().maxRSS / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const timedMs = async <T>(work: () => Promise<T> | T): Promise<{ result: T; ms: number }> => {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
};

const home = await mkdtemp(join(tmpdir(), 'keel-bench-scale-'));
let repo: string;
let bigDir: string;
if (args.repo) {
  repo = args.repo;
  bigDir = join(home, 'big');
  await writeIgnored(bigDir, ignored);
  bigDir = join(bigDir, 'node_modules');
} else {
  repo = args.cache ?? join(tmpdir(), `keel-bench-scale-${files}`);
  if (!existsSync(join(repo, '.git', 'bench-ready'))) {
    process.stderr.write(`building the synthetic repository in ${repo}\n`);
    const built = spawnSync(
      process.execPath,
      [
        ...process.execArgv,
        import.meta.filename,
        '--build',
        '--cache',
        repo,
        '--files',
        `${files}`,
        '--ignored',
        `${ignored}`,
      ],
      { stdio: 'inherit' },
    );
    if (built.status !== 0) throw new Error(`building the repository failed (${built.status})`);
  }
  bigDir = join(repo, 'node_modules');
}
const tracked = Number(git(repo, 'ls-files', '-z').split('\0').filter(Boolean).length);
const details = { files: tracked, ignored, changed };

const model = await startMockModel({ script: knowledgeScript() });
const wbHome = join(home, 'wb');
const env: Record<string, string | undefined> = {
  ...process.env,
  WORKBENCH_HOME: wbHome,
  RUNTIME_HOME: join(home, 'runtime'),
  RUNTIME_MODEL: undefined,
  RUNTIME_MODEL_API_KEY: undefined,
};
const workbench = await createWorkbench({
  env,
  runners: createRunnerRegistry({ keel: { env, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 2 } } }),
});
const base = await workbench.listen(0);
const rssAtStart = mb(process.memoryUsage().rss);
/** The peak RSS (MB) at each point of the flow: which step made it grow. */
const peaks: Record<string, number> = { at_start: peakMb() };
const worktree = join(home, 'worktree');

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

async function until<T>(check: () => Promise<T>, what: string, timeoutMs = 30 * 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

try {
  await api('PUT', '/api/settings', { model: 'mock-model', base_url: model.url, api_key: 'sk-bench' });

  // The project and its knowledge (the scan walks the repository; the scripted model writes the layers).
  const knowledge = await timedMs(async () => {
    const project = await api('POST', '/api/projects', {
      name: 'scale',
      repositories: [{ path: repo, type: 'custom' }],
    });
    await until(async () => {
      const { status } = await api('GET', `/api/projects/${project.id}`);
      if (status === 'FAILED') throw new Error('the project knowledge failed');
      return status === 'READY';
    }, 'the project READY');
    return project as { id: string };
  });
  const project = knowledge.result;
  peaks.after_knowledge = peakMb();

  // Reference first (it also warms the page cache with the packed objects, for both).
  const head = git(repo, 'rev-parse', 'HEAD').trim();
  const worktreeMs = (await timedMs(() => git(repo, 'worktree', 'add', '-q', '--detach', worktree, head))).ms;

  // Stage 01: a new task initializes itself once its project is READY.
  const init = await timedMs(async () => {
    const task = await api('POST', '/api/tasks', {
      project_id: project.id,
      description: 'A change at scale',
    });
    return until(async () => {
      const view = await api('GET', `/api/tasks/${task.id}`);
      if (view.init.status === 'failed') throw new Error(`init failed: ${JSON.stringify(view.init)}`);
      return view.init.status === 'done' ? view : undefined;
    }, 'the task init');
  });
  const task = init.result as { id: string; workspaces: { dir: string; base_commit: string }[] };
  const workspace = task.workspaces[0]!;
  peaks.after_init = peakMb();
  report({
    bench,
    figure: `task init (stage 01) of a ${tracked.toLocaleString('en')}-file repository: POST /api/tasks to init done`,
    value: init.ms,
    unit: 'ms',
    target: 'within 2× of git worktree add',
    reference: { name: 'git worktree add of the same commit', value: worktreeMs },
    details: { ...details, knowledge_to_ready_ms: Math.round(knowledge.ms) },
  });

  // /health alone: the reference for every "slowest /health meanwhile".
  const alone = await healthWhile(base, () => sleep(1000));
  const healthReference = { name: 'slowest GET /health alone, for 1 s before', value: alone.slowestMs };

  // GET /api/directories of the 20,000 sub-folders.
  if (!args['only-diff']) {
    const directoriesUrl = `/api/directories?path=${encodeURIComponent(bigDir)}`;
    await api('GET', directoriesUrl);
    const directories = await timedMs(() => healthWhile(base, () => api('GET', directoriesUrl)));
    const referenceReaddir = await timedMs(() => readdir(bigDir, { withFileTypes: true }));
    peaks.after_directories = peakMb();
    const listing = directories.result.result as { entries: unknown[]; total: number };
    const directoryDetails = { ...details, listed: listing.entries.length, total: listing.total };
    report({
      bench,
      figure: `GET /api/directories of a folder with ${referenceReaddir.result.length.toLocaleString('en')} sub-folders`,
      value: directories.ms,
      unit: 'ms',
      reference: { name: 'readdir of the folder alone, in process', value: referenceReaddir.ms },
      details: directoryDetails,
    });
    report({
      bench,
      figure: 'slowest GET /health answered during GET /api/directories',
      value: directories.result.slowestMs,
      unit: 'ms',
      target: '≤ 50 ms',
      reference: healthReference,
      details: directoryDetails,
    });
  }

  // The change: `changed` tracked files edited in the task's workspace, and the ignored folder an install
  // would leave there (written, not timed).
  const paths = git(workspace.dir, 'ls-files', '-z')
    .split('\0')
    .filter((path) => path && path !== '.gitignore')
    .slice(0, changed);
  const change = async (run: number) => {
    for (let start = 0; start < paths.length; start += 500) {
      await Promise.all(
        paths
          .slice(start, start + 500)
          .map((path) => appendFile(join(workspace.dir, path), `export const changed${run} = true;\n`)),
      );
    }
  };
  await change(0);
  if (!args.repo) {
    await writeIgnored(workspace.dir, ignored);
    // The reference worktree gets the same, for the `rm -rf` beside the DELETE.
    if (!args['only-diff']) await writeIgnored(worktree, ignored);
  }
  peaks.before_diff = peakMb();

  const diffRuns = Number(args['diff-runs']);
  for (let run = 0; run < diffRuns; run++) {
    if (run > 0) await change(run);
    const before = peakMb();
    // The longest the event loop was held (ms) during the request: the service's own share of a slow /health
    // (the rest is waiting for a core while git runs on this 2-core machine).
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const diff = await timedMs(() =>
      healthWhile(base, async () => {
        const response = await fetch(`${base}/api/tasks/${task.id}/diff`);
        const body = await response.text();
        if (!response.ok) throw new Error(`diff: ${response.status} ${body}`);
        return body;
      }),
    );
    loop.disable();
    const diffPeakGrowth = peakMb() - before;
    peaks.after_diff = peakMb();
    const diffBody = JSON.parse(diff.result.result) as {
      repositories: { files: unknown[]; patch: string; truncated: boolean }[];
      additions: number;
    };
    const gitDiffArgs = ['diff', '--no-ext-diff', '--no-textconv', workspace.base_commit];
    const stat = await timedMs(() => git(workspace.dir, ...gitDiffArgs, '--stat'));
    const patch = await timedMs(() => git(workspace.dir, ...gitDiffArgs));
    const diffDetails = {
      ...details,
      run: run + 1,
      files_in_diff: diffBody.repositories[0]!.files.length,
      additions: diffBody.additions,
      patch_bytes: Buffer.byteLength(diffBody.repositories[0]!.patch),
      truncated: diffBody.repositories[0]!.truncated,
      git_diff_bytes: Buffer.byteLength(patch.result),
      git_diff_stat_ms: Math.round(stat.ms),
      longest_event_loop_hold_ms: Math.round(loop.max / 1e6),
      peak_rss_growth_mb: Math.round(diffPeakGrowth),
    };
    report({
      bench,
      figure: `GET /api/tasks/{id}/diff of a change touching ${paths.length.toLocaleString('en')} files`,
      value: diff.ms,
      unit: 'ms',
      reference: {
        name: 'git diff --stat + git diff of the same change, run directly',
        value: stat.ms + patch.ms,
      },
      details: diffDetails,
    });
    if (run === 0) {
      report({
        bench,
        figure: 'size of that diff response',
        value: Buffer.byteLength(diff.result.result) / 1024,
        unit: 'KiB',
        reference: {
          name: 'git diff output of the same change',
          value: Buffer.byteLength(patch.result) / 1024,
        },
        details: diffDetails,
      });
    }
    report({
      bench,
      figure: 'slowest GET /health answered during the diff',
      value: diff.result.slowestMs,
      unit: 'ms',
      target: '≤ 50 ms',
      reference: healthReference,
      details: diffDetails,
    });
  }
  if (!args['only-diff']) {
    // DELETE the task: its workspace (the repository, the change and the ignored folder) goes with it.
    const removal = await timedMs(() => healthWhile(base, () => api('DELETE', `/api/tasks/${task.id}`)));
    peaks.after_delete = peakMb();
    // The floor: the rm program on the reference worktree (the same files, and a .git file for a folder).
    const rmWorktree = await timedMs(() => execFileSync('rm', ['-rf', worktree]));
    const deleteDetails = { ...details, with_ignored_folder: !args.repo };
    report({
      bench,
      figure: 'DELETE /api/tasks/{id} of that task',
      value: removal.ms,
      unit: 'ms',
      reference: {
        name: 'rm -rf of the reference worktree (the same files, no objects)',
        value: rmWorktree.ms,
      },
      details: deleteDetails,
    });
    report({
      bench,
      figure: 'slowest GET /health answered during DELETE /api/tasks/{id}',
      value: removal.result.slowestMs,
      unit: 'ms',
      target: '≤ 50 ms',
      reference: healthReference,
      details: deleteDetails,
    });
  }

  report({
    bench,
    figure: 'service RSS at start (listening, no project)',
    value: rssAtStart,
    unit: 'MB',
    details,
  });
  report({
    bench,
    figure: 'service RSS after the flow',
    value: mb(process.memoryUsage().rss),
    unit: 'MB',
    details,
  });
  report({
    bench,
    figure: 'service peak RSS (the whole run, in process)',
    value: peakMb(),
    unit: 'MB',
    details: {
      ...details,
      ...Object.fromEntries(Object.entries(peaks).map(([at, value]) => [`peak_mb_${at}`, Math.round(value)])),
    },
  });
} finally {
  await workbench.close();
  await model.close();
  // The reference worktree's folder is removed with the rest; git then forgets it.
  await rm(home, { recursive: true, force: true });
  git(repo, 'worktree', 'prune');
}

/** The project's knowledge, every layer answered (as packages/workbench/test/harness.ts does). */
function knowledgeScript(): ScriptedReply[] {
  return [
    { when: { lastMessageIncludes: 'Describe the STRUCTURE' }, text: '# Structure\n\npackages/ holds code.' },
    { when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' }, text: '# Business flow\n\nNone.' },
    { when: { lastMessageIncludes: 'Describe the MODULES' }, text: '# Modules\n\n- pkg0' },
    { when: { lastMessageIncludes: 'Write a short INDEX' }, text: '# Index\n\nA large monorepo.' },
  ];
}
