import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdir, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@keel/testkit';
import type { WorkerCommand, WorkerSetup } from './crash-worker.ts';

const script = join(import.meta.dirname, 'crash-worker.ts');

/** One crash-worker process: started ahead (it loads the runtime), told what to do, killed or awaited. */
export interface WorkerProcess {
  readonly pid: number;
  readonly child: ChildProcess;
  /** Resolves once the runtime is loaded and the store open. */
  readonly ready: Promise<void>;
  /** How it ended: an exit code, or the signal that killed it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** stdout and stderr so far, for failure messages. */
  output(): string;
  go(command: WorkerCommand): void;
  /** SIGKILL from outside, as a crash would. */
  kill(): void;
}

/**
 * Starts a worker. With `host`, it runs under that host name (its own UTS namespace): to the runs it finds,
 * a worker of another machine, which can only take over a run once the dead worker's lease ran out.
 */
export function startWorker(setup: WorkerSetup, host?: string): WorkerProcess {
  // The sources, not dist/: the worker runs what the tests run. Node 24 strips the types itself.
  const node = [process.execPath, '--conditions=@keel/source', script, JSON.stringify(setup)];
  // `exec` keeps one pid from unshare to node: killing it kills the worker.
  const [file, ...args] = host
    ? ['unshare', '--uts', 'sh', '-c', `hostname ${host} && exec "$@"`, 'sh', ...node]
    : node;
  const child = spawn(file!, args, {
    cwd: setup.runtimeDir,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Dozens of workers load the same sources: the compile cache halves what each start costs.
    env: { ...process.env, NODE_COMPILE_CACHE: join(tmpdir(), 'keel-crash-worker-cache') },
  });
  let out = '';
  let markReady: () => void = () => {};
  let failReady: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('"ready":true')) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      failReady(new Error(`crash worker ${child.pid} exited before it was ready:\n${out}`));
      resolve({ code, signal });
    });
  });
  // Nobody may be waiting on `ready` when a spare worker dies unused.
  ready.catch(() => undefined);
  return {
    pid: child.pid!,
    child,
    ready,
    exited,
    output: () => out,
    go: (command) => {
      child.stdin.write(`${JSON.stringify(command)}\n`);
    },
    kill: () => {
      child.kill('SIGKILL');
    },
  };
}

/**
 * Waits until no process works in `dir` any more: the commands a killed worker had started (each in its own
 * process group, stopped by its tether once the worker is gone) have stopped writing their tokens.
 */
export async function waitForOrphans(dir: string): Promise<void> {
  await eventually(async () => (await processesIn(dir)).length === 0, {
    timeoutMs: 10_000,
    intervalMs: 10,
    what: `the commands the killed worker started in ${dir} to finish`,
  });
}

/** Processes whose working directory is `dir` or below it (Linux: /proc/<pid>/cwd). */
async function processesIn(dir: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => '');
    if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(Number(entry));
  }
  return found;
}

let otherHosts: boolean | undefined;

/** Whether workers can run under another host name here (`unshare --uts` needs root on Linux). */
export function otherHostsAvailable(): boolean {
  if (otherHosts === undefined) {
    try {
      execFileSync('unshare', ['--uts', 'sh', '-c', 'hostname keel-probe'], { stdio: 'ignore' });
      otherHosts = true;
    } catch {
      otherHosts = false;
    }
  }
  return otherHosts;
}
