import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** One run of an agent's program. */
export interface ProcessSpec {
  binary: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Past this the whole process group is killed and the result says `timedOut`. */
  timeoutMs: number;
  signal: AbortSignal;
}

export interface ProcessResult {
  /** Exit code, or null when a signal ended it (ours or another's). */
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** Spawning failed (ENOENT, EACCES): the program never ran. */
  spawnError?: Error;
  /** The last lines of stderr (bounded), for the error's details. */
  stderrTail: string;
}

const stderrTailChars = 4_000;
/** How long a SIGTERM'd group gets before SIGKILL, and how long leftovers may hold stdout after exit. */
const graceMs = 2_000;

/**
 * Runs a program in its own process group (`detached`), hands each stdout line to `onLine` in order (awaited,
 * so a slow consumer slows the reader instead of buffering without bound), keeps a bounded stderr tail, and
 * kills the whole group on abort, on timeout and at the end: agents start helpers (MCP servers, shells,
 * their native binary behind a Node launcher) that must not outlive the run or keep its pipes open.
 */
export async function runProcess(
  spec: ProcessSpec,
  onLine: (line: string) => Promise<void>,
): Promise<ProcessResult> {
  const child = spawn(spec.binary, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    // Agents read a prompt from stdin when it is a pipe (Codex waits for EOF): give them none.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result: ProcessResult = {
    exitCode: null,
    exitSignal: null,
    timedOut: false,
    aborted: false,
    stderrTail: '',
  };
  const timers: NodeJS.Timeout[] = [];
  const killGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  };
  const stop = () => {
    killGroup('SIGTERM');
    timers.push(setTimeout(() => killGroup('SIGKILL'), graceMs).unref());
  };

  const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
  const exited = new Promise<void>((resolve) => {
    child.once('error', (error) => {
      result.spawnError = error;
      // No process (a bad interpreter line, no permission): nothing else would end the line reader.
      lines.close();
      child.stdout.destroy();
      child.stderr.destroy();
      resolve();
    });
    child.once('exit', (code, signal) => {
      result.exitCode = code;
      result.exitSignal = signal;
      // A helper left in the group would hold stdout open and the reader would wait for ever.
      timers.push(setTimeout(() => killGroup('SIGKILL'), graceMs).unref());
      resolve();
    });
  });

  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    result.stderrTail = (result.stderrTail + chunk).slice(-stderrTailChars);
  });

  const onAbort = () => {
    result.aborted = true;
    stop();
  };
  if (spec.signal.aborted) onAbort();
  else spec.signal.addEventListener('abort', onAbort, { once: true });
  timers.push(
    setTimeout(() => {
      result.timedOut = true;
      stop();
    }, spec.timeoutMs).unref(),
  );

  try {
    for await (const line of lines) await onLine(line);
    await exited;
  } catch (error) {
    // The consumer failed (a bug, or the log could not be written): the agent must not run on unseen.
    stop();
    throw error;
  } finally {
    spec.signal.removeEventListener('abort', onAbort);
    for (const timer of timers) clearTimeout(timer);
    // Whatever the group still holds (an MCP server the agent did not stop) ends with the run.
    killGroup('SIGKILL');
  }
  return result;
}

/** The last `count` non-empty lines of a text, for error details. */
export function lastLines(text: string, count = 20): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter(Boolean)
    .slice(-count);
}
