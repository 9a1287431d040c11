// The desktop shell's cost beside the plain service: time from launch to the SPA on screen, and memory of
// every process it runs, against `keel-workbench run` to a ready /api/health. Needs Xvfb (Debian: xvfb) and
// WebKitGTK (libwebkit2gtk-4.1-0); builds nothing (run `npm run build` first). Prints JSON lines.
//   DESKTOP_RUNS=5 node packages/desktop/bench/start.ts
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');
const workbenchBin = join(root, 'packages', 'workbench', 'bin', 'keel-workbench.js');
const desktopBin = join(root, 'packages', 'desktop', 'bin', 'keel-desktop.js');
const runs = Number(process.env.DESKTOP_RUNS ?? 5);

function waitFor(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    const look = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = pattern.exec(output);
      if (match) resolve(match);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', () => reject(new Error(`ended before ${pattern}: ${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return ended;
}

/** kB of a process from /proc: resident (shared pages counted in each process) and proportional. */
function memory(pid: number): { rss: number; pss: number } {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
    return { rss: field('Rss'), pss: field('Pss') };
  } catch {
    return { rss: 0, pss: 0 };
  }
}

function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {}
  }
  const all = [pid];
  for (let index = 0; index < all.length; index++) all.push(...(children.get(all[index] as number) ?? []));
  return all;
}

const sum = (pids: number[]) =>
  pids
    .map(memory)
    .reduce((total, one) => ({ rss: total.rss + one.rss, pss: total.pss + one.pss }), { rss: 0, pss: 0 });
const mb = (kb: number) => Math.round(kb / 1024);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function plainService(env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const child = spawn(process.execPath, [workbenchBin, 'run', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [, url] = await waitFor(child, /listening on (http:\/\/\S+)/);
  while (
    !(await fetch(`${url}/api/health`).then(
      (answer) => answer.ok,
      () => false,
    ))
  ) {}
  const ms = performance.now() - started;
  const used = sum(tree(child.pid as number));
  await stop(child);
  return { ms, ...used };
}

async function desktop(env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const child = spawn(process.execPath, [desktopBin], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const [, servicePid] = await waitFor(child, /started the workbench for .* \(pid (\d+)\)/);
  const [, windowPid] = await waitFor(child, /window open \(pid (\d+)\)/);
  await waitFor(child, /window shows/);
  const ms = performance.now() - started;
  const service = sum(tree(Number(servicePid)));
  const window = sum(tree(Number(windowPid)));
  const all = sum(tree(child.pid as number));
  const shell = memory(child.pid as number);
  if (process.env.DESKTOP_DETAIL) {
    for (const pid of tree(child.pid as number)) {
      const name = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, 2).join(' ').slice(-70);
      console.log(JSON.stringify({ pid, name, ...memory(pid) }));
    }
  }
  await stop(child);
  return { ms, ...all, service, window, shell };
}

const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {
  stdio: ['ignore', 'pipe', 'ignore'],
});
const [, display] = await waitFor(xvfb, /^(\d+)$/m);
const results: {
  plain: Awaited<ReturnType<typeof plainService>>[];
  desktop: Awaited<ReturnType<typeof desktop>>[];
} = { plain: [], desktop: [] };
try {
  // The first of each fills Node's compile cache and WebKit's, as any earlier use would: not counted.
  for (let run = 0; run <= runs; run++) {
    for (const kind of ['plain', 'desktop'] as const) {
      const home = mkdtempSync(join(tmpdir(), 'keel-desktop-bench-'));
      const env = {
        ...process.env,
        DISPLAY: `:${display}`,
        WORKBENCH_HOME: home,
        RUNTIME_HOME: join(home, 'rt'),
      };
      try {
        const result = kind === 'plain' ? await plainService(env) : await desktop(env);
        if (run > 0) (results[kind] as unknown[]).push(result);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    }
  }
} finally {
  await stop(xvfb);
}
const figure = (name: string, values: number[], unit: string) =>
  console.log(
    JSON.stringify({ bench: 'desktop', figure: name, median: median(values), unit, runs: values.length }),
  );
const { plain, desktop: shown } = results;
const figures: [string, number[], string][] = [
  ['plain service: start → /api/health ready', plain.map((r) => Math.round(r.ms)), 'ms'],
  ['plain service: RSS', plain.map((r) => mb(r.rss)), 'MB'],
  ['plain service: PSS', plain.map((r) => mb(r.pss)), 'MB'],
  ['desktop: launch → SPA on screen', shown.map((r) => Math.round(r.ms)), 'ms'],
  ['desktop: RSS of every process (shared pages counted in each)', shown.map((r) => mb(r.rss)), 'MB'],
  ['desktop: PSS of every process (shared pages split)', shown.map((r) => mb(r.pss)), 'MB'],
  ['desktop: service RSS', shown.map((r) => mb(r.service.rss)), 'MB'],
  ['desktop: window and WebKit RSS', shown.map((r) => mb(r.window.rss)), 'MB'],
  ['desktop: window and WebKit PSS', shown.map((r) => mb(r.window.pss)), 'MB'],
  ['desktop: shell RSS', shown.map((r) => mb(r.shell.rss)), 'MB'],
];
for (const [name, values, unit] of figures) figure(name, values, unit);
