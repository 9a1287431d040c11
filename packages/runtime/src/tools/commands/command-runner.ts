import { type ChildProcess, spawn as nodeSpawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { OutputBuffer } from './output-buffer.ts';
import { canTether, tetheredArgv } from './worker-tether.ts';

/** Options of `runCommand`. */
export interface RunCommandOptions {
  /** The program and its arguments (already wrapped by the sandbox, if any). */
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The process group is stopped after this long. */
  timeoutMs: number;
  /** Aborting stops the process group. */
  signal: AbortSignal;
  /** Output beyond this is cut from the middle. */
  maxOutputChars: number;
  /** How long a stopped process gets after SIGTERM before SIGKILL (default 1000 ms). */
  killGraceMs?: number;
  /** Starts the process (default node's `spawn`); for tests. */
  spawn?: typeof nodeSpawn;
  /**
   * False: the command may outlive this process. By default it is tethered to it (see worker-tether.ts):
   * when this process dies, even by SIGKILL, the command's process group is stopped.
   */
  tether?: boolean;
}

/** How a command ended. */
export interface CommandOutcome {
  /** stdout and stderr interleaved as they arrived, bounded. */
  output: string;
  /** Characters of output before any cut. */
  outputChars: number;
  exitCode: number | null;
  /** The signal that ended the command, when one did. */
  exitSignal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
}

// After the command exits, how long its output pipes may take to drain.
const drainMs = 200;

/**
 * Runs a program in its own process group, so that a timeout, a cancellation, the command's end or the
 * death of this process stops everything it started (background jobs included), and collects its output
 * within bounds.
 */
export async function runCommand(options: RunCommandOptions): Promise<CommandOutcome> {
  if (options.argv[0] === undefined) throw new Error('runCommand needs a program to run.');
  const killGraceMs = options.killGraceMs ?? 1000;
  const tethered = canTether && options.tether !== false;
  const [file, ...args] = tethered ? tetheredArgv(options.argv, killGraceMs) : options.argv;
  const started = Date.now();
  const output = new OutputBuffer(options.maxOutputChars);
  const child = (options.spawn ?? nodeSpawn)(file!, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    // The tether: a pipe nothing writes to, which ends when this process does (worker-tether.ts).
    stdio: tethered ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
  });
  const tether = tethered ? (child.stdio[3] as Readable | null) : null;
  // The watcher never writes; a failure of this end (the group is gone) is nothing to report.
  tether?.on('error', () => undefined);
  const streams = [child.stdout, child.stderr].filter((stream): stream is Readable => stream !== null);
  for (const stream of streams) {
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer) => output.append(decoder.write(chunk)));
    stream.on('end', () => output.append(decoder.end()));
  }

  let timedOut = false;
  let cancelled = false;
  let escalation: NodeJS.Timeout | undefined;
  const stop = () => {
    if (escalation) return;
    signalGroup(child, 'SIGTERM');
    escalation = setTimeout(() => signalGroup(child, 'SIGKILL'), killGraceMs);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, options.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    stop();
  };
  options.signal.addEventListener('abort', onAbort, { once: true });
  if (options.signal.aborted) onAbort();

  try {
    const [exitCode, exitSignal] = await new Promise<[number | null, NodeJS.Signals | null]>(
      (resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code, signal) => resolve([code, signal]));
      },
    );
    // What the command left running in the background would otherwise outlive the run.
    signalGroup(child, 'SIGKILL');
    await drained(streams);
    return {
      output: output.toString(),
      outputChars: output.totalChars,
      exitCode,
      exitSignal,
      timedOut,
      cancelled,
      durationMs: Date.now() - started,
    };
  } finally {
    tether?.destroy();
    clearTimeout(timer);
    clearTimeout(escalation);
    options.signal.removeEventListener('abort', onAbort);
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    // A negative pid addresses the whole process group the detached child leads.
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Waits for the pipes to close, but not for ever: a process that escaped the group may hold them. */
async function drained(streams: Readable[]): Promise<void> {
  const closed = streams.map(
    (stream) => new Promise<void>((resolve) => (stream.closed ? resolve() : stream.once('close', resolve))),
  );
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, drainMs);
  });
  await Promise.race([Promise.all(closed), timeout]);
  clearTimeout(timer);
  for (const stream of streams) stream.destroy();
}
