// Does any heavy operation of the workbench stall it (issue #44 items 1 and 2)? The service runs in a child
// process (so that this process's own work never counts against it) on a synthetic repository of 100,000
// tracked files (the one `bench/workbench-scale.ts` builds and caches), with the scripted model answering the
// project's knowledge. During each heavy operation, `GET /health` is asked every 50 ms; each line prints the
// slowest answer, the longest the service's event loop was held meanwhile (measured inside it), and how long
// the operation took:
//   project create → READY, knowledge generated again, task init (stage 01), the review diff of a change
//   touching 5,000 files, one file's patch, a 100,000-event session log replayed over the WebSocket, and the
//   project's delete (with its task).
// Reference in the same run: the slowest /health while the service is idle, and while this process runs
// `git diff` on the same change (the machine's own noise). With each operation, the longest hold split
// (Linux) into the service's main thread on a CPU, waiting for one (runnable: the machine's load) and the
// rest (blocked in a synchronous call), and the longest hold of an idle Node process meanwhile. Then the project scan itself, as the service calls
// it, against `git ls-files -co --exclude-standard` of the same repository, alternated (target ≤ 2×).
// Figures only: nothing passes or fails.
// Sizes: KEEL_STALL_FILES (100000), KEEL_STALL_IGNORED (20000), KEEL_STALL_CHANGED (5000),
// KEEL_STALL_EVENTS (100000), KEEL_STALL_SCAN_RUNS (5); KEEL_STALL_CACHE: where the repository is built once
// (default /tmp/keel-bench-scale-<files>, shared with workbench-scale.ts). KEEL_STALL_ONLY=task-init: the
// project create and the task init only (the others skipped), to measure or profile that one operation;
// KEEL_STALL_HOLDS=1: every hold over 35 ms of the service's loop on stderr, stamped to be found in a
// `--cpu-prof` profile of it (node --cpu-prof --cpu-prof-dir=… profiles the service's process too).
// Run: node --conditions=@keel/source bench/workbench-stall.ts (a few minutes on 2 cores; most of it the
// task init, which checks out 100,000 files).
import { execFile, execFileSync, fork, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { type ScriptedReply, startMockModel } from '@keel/testkit';
import { report } from './report.ts';

const files = Number(process.env.KEEL_STALL_FILES ?? 100_000);
const ignored = Number(process.env.KEEL_STALL_IGNORED ?? 20_000);
const changed = Number(process.env.KEEL_STALL_CHANGED ?? 5_000);
const events = Number(process.env.KEEL_STALL_EVENTS ?? 100_000);
const scanRuns = Number(process.env.KEEL_STALL_SCAN_RUNS ?? 5);
const onlyTaskInit = process.env.KEEL_STALL_ONLY === 'task-init';
const printHolds = process.env.KEEL_STALL_HOLDS === '1';
const bench = 'workbench-stall';
const pingEveryMs = 50;

/** What the parent asks the service's process, and what it answers. */
type Request = { id: number; kind: 'loop-reset' | 'loop-read' | 'log'; events?: number };
type Answer = { id: number; loopMaxMs?: number; peakRssMb?: number; sessionId?: string; hold?: Hold };
/** The longest hold of a process's event loop, and where its main thread was meanwhile (ms). */
type Hold = { ms: number; cpu_ms?: number; runnable_ms?: number };

if (process.argv.includes('--serve')) await serve();
else if (process.argv.includes('--idle')) idle();
else await main();

/**
 * The longest gap between two ticks of a 5 ms timer since the last reset, with the main thread's time on a
 * CPU and waiting for one over that gap (/proc's schedstat; Linux only): what is left was a blocking call.
 */
function holdWatch(print = false): { reset: () => void; read: () => Hold } {
  const file = `/proc/self/task/${process.pid}/schedstat`;
  const sched = (): number[] | undefined => {
    try {
      return readFileSync(file, 'utf8').split(' ').map(Number);
    } catch {
      return undefined;
    }
  };
  let longest: Hold = { ms: 0 };
  let last = { at: performance.now(), sched: sched() };
  setInterval(() => {
    const now = { at: performance.now(), sched: sched() };
    const ms = now.at - last.at;
    if (print && ms > 35) {
      // The hold's end on the monotonic clock of a `--cpu-prof` profile (µs), to find what ran then.
      const split =
        now.sched && last.sched ? now.sched.map((value, i) => (value - last.sched![i]!) / 1e6) : [];
      const [cpu = 0, runnable = 0] = split;
      const end = process.hrtime.bigint() / 1000n;
      process.stderr.write(
        `hold ${Math.round(ms)} ms ending at ${end} µs: cpu ${Math.round(cpu)}, runnable ${Math.round(runnable)}\n`,
      );
    }
    if (ms > longest.ms) {
      longest = { ms };
      if (now.sched && last.sched) {
        longest.cpu_ms = (now.sched[0]! - last.sched[0]!) / 1e6;
        longest.runnable_ms = (now.sched[1]! - last.sched[1]!) / 1e6;
      }
    }
    last = now;
  }, 5).unref();
  return { reset: () => (longest = { ms: 0 }), read: () => longest };
}

/** A Node process doing nothing: its longest hold is the machine's. */
function idle(): void {
  const holds = holdWatch();
  process.on('message', (request: Request) => {
    if (request.kind === 'loop-reset') holds.reset();
    process.send?.({ id: request.id, hold: holds.read() } satisfies Answer);
  });
  process.on('disconnect', () => process.exit(0));
}

/** The service's process: the workbench over HTTP, plus a few answers about itself over IPC. */
async function serve(): Promise<void> {
  const { createWorkbench } = await import('@keel/workbench');
  const { createRunnerRegistry } = await import('../packages/workbench/src/runners/index.ts');
  const env = { ...process.env } as Record<string, string | undefined>;
  const workbench = await createWorkbench({
    env,
    runners: createRunnerRegistry({
      keel: { env, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 2 } },
    }),
  });
  const base = await workbench.listen(0);
  let loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const holds = holdWatch(printHolds);
  process.on('message', async (request: Request) => {
    const answer: Answer = { id: request.id };
    if (request.kind === 'loop-reset') {
      holds.reset();
      loop.disable();
      loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
    } else if (request.kind === 'loop-read') {
      answer.loopMaxMs = loop.max / 1e6;
      answer.hold = holds.read();
      answer.peakRssMb = process.resourceUsage().maxRSS / 1024;
    } else {
      const { runner } = workbench.services;
      const session = await runner.create('conversation', null, 'keel', {
        workdir: tmpdir(),
        skillDirs: [],
      });
      for (let i = 0; i < (request.events ?? 0); i++) {
        runner.record(session.id, { type: 'text_delta', content: `chunk ${i} of a streamed answer ` });
      }
      answer.sessionId = session.id;
    }
    process.send?.(answer);
  });
  process.on('disconnect', () => void workbench.close().then(() => process.exit(0)));
  process.send?.({ id: 0, base });
}

async function main(): Promise<void> {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const git = (cwd: string, ...argv: string[]) =>
    execFileSync('git', ['-c', 'gc.auto=0', ...argv], {
      cwd,
      encoding: 'utf8',
      stdio: 'pipe',
      maxBuffer: 1024 * 1024 * 1024,
    });
  const gitAsync = promisify(execFile);

  const repo = process.env.KEEL_STALL_CACHE ?? join(tmpdir(), `keel-bench-scale-${files}`);
  if (!existsSync(join(repo, '.git', 'bench-ready'))) {
    process.stderr.write(`building the synthetic repository in ${repo}\n`);
    const scale = join(import.meta.dirname, 'workbench-scale.ts');
    const args = ['--build', '--cache', repo, '--files', `${files}`, '--ignored', `${ignored}`];
    const built = spawnSync(process.execPath, [...process.execArgv, scale, ...args], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`building the repository failed (${built.status})`);
  }
  const tracked = git(repo, 'ls-files', '-z').split('\0').filter(Boolean).length;
  const details = { files: tracked, ignored, changed };

  const home = await mkdtemp(join(tmpdir(), 'keel-bench-stall-'));
  const model = await startMockModel({ script: knowledgeScript() });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WORKBENCH_HOME: join(home, 'wb'),
    RUNTIME_HOME: join(home, 'runtime'),
  };
  delete env.RUNTIME_MODEL;
  delete env.RUNTIME_MODEL_API_KEY;
  const service = fork(import.meta.filename, ['--serve'], {
    execArgv: process.execArgv,
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // The machine's reference: a Node process with nothing to do, its loop watched as the service's is.
  const idleProcess = fork(import.meta.filename, ['--idle'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (answer: Answer & { base?: string }) => void>();
  for (const child of [service, idleProcess]) {
    child.on('message', (answer: Answer) => waiting.get(answer.id)?.(answer));
  }
  const started = new Promise<string>((resolve) => waiting.set(0, (answer) => resolve(answer.base ?? '')));
  let nextId = 1;
  const askOf =
    (child: typeof service) =>
    (kind: Request['kind'], extra: Partial<Request> = {}) =>
      new Promise<Answer>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        child.send({ id, kind, ...extra } satisfies Request);
      });
  const ask = askOf(service);
  const askIdle = askOf(idleProcess);
  const base = await started;

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

  const prober = new Worker(probeSource(), { eval: true, workerData: { base, everyMs: pingEveryMs } });
  prober.unref();
  const probe = async (what: 'start' | 'stop') => {
    const answer = once(prober, 'message');
    prober.postMessage(what);
    return (await answer)[0] as { slowestMs: number; pings: number };
  };

  /**
   * Runs `work` while asking /health every 50 ms from a thread of its own (this process's own work, a
   * WebSocket client reading 100,000 frames say, must not make a ping late): the slowest answer.
   */
  async function stallWhile<T>(work: () => Promise<T>) {
    await askIdle('loop-reset');
    await ask('loop-reset');
    await probe('start');
    const begun = performance.now();
    let result: T;
    try {
      result = await work();
    } finally {
      // A hold at the very end shows once the service's next timer fires, and in the next ping.
      await sleep(pingEveryMs + 20);
    }
    const ms = performance.now() - begun;
    return { result, ms, ...(await probe('stop')) };
  }

  const figures: Record<string, number> = {};
  // The first answers compile the routes' code and the prober's: not what the reference is about.
  await stallWhile(() => sleep(1000));
  const idle = await stallWhile(() => sleep(2000));
  const idleReference = { name: 'slowest GET /health while the service is idle, 2 s', value: idle.slowestMs };

  /** One operation's lines: its slowest /health (the figure), its time and the loop's longest hold. */
  async function measure<T>(
    operation: string,
    work: () => Promise<T>,
    more: Record<string, unknown> = {},
    reference = idleReference,
  ): Promise<T> {
    const run = await stallWhile(work);
    const loop = await ask('loop-read');
    const machine = await askIdle('loop-read');
    const rounded = (hold: Hold | undefined) =>
      Object.fromEntries(Object.entries(hold ?? {}).map(([key, ms]) => [key, Math.round(ms)]));
    figures[operation] = run.slowestMs;
    report({
      bench,
      figure: `slowest GET /health (every ${pingEveryMs} ms) during ${operation}`,
      value: run.slowestMs,
      unit: 'ms',
      target: '≤ 50 ms',
      reference,
      details: {
        ...details,
        operation_ms: Math.round(run.ms),
        longest_event_loop_hold_ms: Math.round(loop.loopMaxMs ?? 0),
        longest_hold_split: rounded(loop.hold),
        idle_node_longest_hold_ms: Math.round(machine.hold?.ms ?? 0),
        pings: run.pings,
        ...more,
      },
    });
    return run.result;
  }

  const projectReady = (id: string) =>
    until(async () => {
      const { status } = await api('GET', `/api/projects/${id}`);
      if (status === 'FAILED') throw new Error('the project knowledge failed');
      return status === 'READY';
    }, 'the project READY');

  try {
    await api('PUT', '/api/settings', { model: 'mock-model', base_url: model.url, api_key: 'sk-bench' });
    const lsFiles = () =>
      gitAsync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
        cwd: repo,
        encoding: 'buffer',
        maxBuffer: 1 << 30,
      });
    const lsFilesMs = async () => {
      const begun = performance.now();
      await lsFiles();
      return performance.now() - begun;
    };
    await lsFiles();
    const lsReference = await lsFilesMs();

    // Project create → READY: the repository's checks, then the knowledge (the scan, the scripted layers).
    let createMs = 0;
    const project = await measure('project create → READY', async () => {
      const begun = performance.now();
      const created = await api('POST', '/api/projects', {
        name: 'stall',
        repositories: [{ path: repo, type: 'custom' }],
      });
      await projectReady(created.id);
      createMs = performance.now() - begun;
      return created as { id: string };
    });
    report({
      bench,
      figure: `project create → READY, ${tracked.toLocaleString('en')} files (scan and scripted knowledge)`,
      value: createMs,
      unit: 'ms',
      reference: { name: 'git ls-files -co --exclude-standard, same repository', value: lsReference },
      details,
    });

    if (!onlyTaskInit) {
      await measure('knowledge generated again (POST /api/projects/{id}/init → READY)', async () => {
        await api('POST', `/api/projects/${project.id}/init`);
        await projectReady(project.id);
      });
    }

    const task = await measure('task init (stage 01): POST /api/tasks → init done', async () => {
      const created = await api('POST', '/api/tasks', {
        project_id: project.id,
        description: 'A stall test',
      });
      return until(async () => {
        const view = await api('GET', `/api/tasks/${created.id}`);
        if (view.init.status === 'failed') throw new Error(`init failed: ${JSON.stringify(view.init)}`);
        return view.init.status === 'done' ? view : undefined;
      }, 'the task init');
    });
    if (onlyTaskInit) return;
    const workspace = task.workspaces[0] as { dir: string; base_commit: string; repository: string };

    // The change: `changed` tracked files edited in the task's workspace (not timed).
    const paths = git(workspace.dir, 'ls-files', '-z')
      .split('\0')
      .filter((path) => path && path !== '.gitignore')
      .slice(0, changed);
    for (let start = 0; start < paths.length; start += 500) {
      await Promise.all(
        paths
          .slice(start, start + 500)
          .map((path) => appendFile(join(workspace.dir, path), 'export const changed = true;\n')),
      );
    }
    // The machine's noise while git diffs the same change, run from this process.
    const gitDiffArgs = ['diff', '--no-ext-diff', '--no-textconv', workspace.base_commit];
    const plainDiff = await stallWhile(async () => {
      await gitAsync('git', [...gitDiffArgs, '--stat'], { cwd: workspace.dir, maxBuffer: 1 << 30 });
      await gitAsync('git', gitDiffArgs, { cwd: workspace.dir, maxBuffer: 1 << 30 });
    });
    const diffReference = {
      name: 'slowest GET /health while this process ran git diff --stat + git diff of the change',
      value: plainDiff.slowestMs,
    };
    const diffBody = await measure(
      `the review diff (GET /api/tasks/{id}/diff) of ${paths.length.toLocaleString('en')} changed files`,
      async () => {
        const response = await fetch(`${base}/api/tasks/${task.id}/diff`);
        const body = await response.text();
        if (!response.ok) throw new Error(`diff: ${response.status} ${body}`);
        return body;
      },
      { git_diff_stat_and_diff_ms: Math.round(plainDiff.ms), idle_reference_ms: Math.round(idle.slowestMs) },
      diffReference,
    );
    const diffFiles = (JSON.parse(diffBody) as { repositories: { files: { path: string }[] }[] })
      .repositories[0]!.files;
    const lastFile = diffFiles.at(-1)?.path ?? paths.at(-1)!;
    await measure('one file of that diff (GET /api/tasks/{id}/diff/file)', async () => {
      const query = `repository=${encodeURIComponent(workspace.repository)}&path=${encodeURIComponent(lastFile)}`;
      await api('GET', `/api/tasks/${task.id}/diff/file?${query}`);
    });

    // A long session log, replayed to a WebSocket client from cursor 0 (the client only counts frames).
    const { sessionId } = await ask('log', { events });
    await measure(`replay of a ${events.toLocaleString('en')}-event session log over the WebSocket`, () =>
      replay(base, sessionId!, events),
    );

    await measure('project delete (DELETE /api/projects/{id}, its task and workspace with it)', () =>
      api('DELETE', `/api/projects/${project.id}`),
    );

    // The scan as the service calls it (in its worker thread), alternated with git's listing.
    const { scanRepository } = await import('../packages/workbench/src/scan/index.ts');
    const firstBegun = performance.now();
    await scanRepository(repo);
    const firstScanMs = performance.now() - firstBegun;
    const scans: number[] = [];
    const listings: number[] = [];
    for (let run = 0; run < scanRuns; run++) {
      listings.push(await lsFilesMs());
      const begun = performance.now();
      await scanRepository(repo);
      scans.push(performance.now() - begun);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    report({
      bench,
      figure: `project scan of ${tracked.toLocaleString('en')} files (scanRepository, in its worker), median of ${scanRuns}`,
      value: median(scans),
      unit: 'ms',
      target: '≤ 2× git ls-files',
      reference: { name: 'git ls-files -co --exclude-standard, alternated', value: median(listings) },
      details: {
        ...details,
        scans_ms: scans.map(Math.round),
        git_ls_files_ms: listings.map(Math.round),
        first_scan_ms_with_worker_start: Math.round(firstScanMs),
      },
    });
    const servicePeak = await ask('loop-read');
    report({
      bench,
      figure: 'worst slowest GET /health over every operation',
      value: Math.max(...Object.values(figures)),
      unit: 'ms',
      target: '≤ 50 ms',
      reference: idleReference,
      details: { ...details, service_peak_rss_mb: Math.round(servicePeak.peakRssMb ?? 0) },
    });
  } finally {
    await prober.terminate();
    service.disconnect();
    idleProcess.disconnect();
    await new Promise((resolve) => service.once('exit', resolve));
    await model.close();
    await rm(home, { recursive: true, force: true });
    git(repo, 'worktree', 'prune');
  }
}

/**
 * The prober's thread: on 'start', /health every `everyMs` (at once after a slower answer); on 'stop', the
 * slowest answer and the count since 'start'. One thread for the whole run, so its first requests (its fetch
 * compiling, its connection opening) are in the warm-up, not in a figure.
 */
function probeSource(): string {
  return `
const { parentPort, workerData } = require('node:worker_threads');
let round;
parentPort.on('message', (message) => {
  if (message === 'start') {
    const current = { running: true, slowestMs: 0, pings: 0 };
    round = current;
    current.done = (async () => {
      while (current.running) {
        const sent = performance.now();
        await (await fetch(workerData.base + '/health')).arrayBuffer();
        const tookMs = performance.now() - sent;
        current.slowestMs = Math.max(current.slowestMs, tookMs);
        current.pings++;
        const wait = workerData.everyMs - tookMs;
        if (current.running && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })();
    parentPort.postMessage('started');
  } else {
    round.running = false;
    round.done.then(() => parentPort.postMessage({ slowestMs: round.slowestMs, pings: round.pings }));
  }
});
`;
}

/** A WebSocket subscribed to the session from cursor 0; resolves once the frame of seq `last` came. */
function replay(base: string, sessionId: string, last: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}/api/ws`);
    const end = `"seq":${last},`;
    let frames = 0;
    socket.onopen = () =>
      socket.send(JSON.stringify({ type: 'subscribe', channel: `session:${sessionId}`, after: 0 }));
    socket.onmessage = (message) => {
      frames++;
      if (String(message.data).includes(end)) {
        socket.close();
        resolve(frames);
      }
    };
    socket.onerror = () => reject(new Error('WebSocket failed'));
  });
}

/** The project's knowledge, every layer answered twice (it is generated twice), as the harness answers it. */
function knowledgeScript(): ScriptedReply[] {
  const layers: ScriptedReply[] = [
    { when: { lastMessageIncludes: 'Describe the STRUCTURE' }, text: '# Structure\n\npackages/ holds code.' },
    { when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' }, text: '# Business flow\n\nNone.' },
    { when: { lastMessageIncludes: 'Describe the MODULES' }, text: '# Modules\n\n- pkg0' },
    { when: { lastMessageIncludes: 'Write a short INDEX' }, text: '# Index\n\nA large monorepo.' },
  ];
  return [...layers, ...layers];
}
