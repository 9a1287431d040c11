import { spawn } from 'node:child_process';

export interface CollectOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs: number;
  maxStdoutBytes: number;
}

export interface CollectedRun {
  stdout: Buffer;
  /** The last 64 KiB of stderr. */
  stderr: string;
  code: number | null;
  /** Stdout reached `maxStdoutBytes`; the process was stopped there. */
  truncated: boolean;
  timedOut: boolean;
  spawnError?: NodeJS.ErrnoException;
}

const maxStderrChars = 64 * 1024;

/** Runs `command args` without a shell, collecting bounded output; never rejects (failures are data). */
export function spawnCollect(
  command: string,
  args: readonly string[],
  options: CollectOptions,
): Promise<CollectedRun> {
  return new Promise((resolve) => {
    const empty = { stdout: Buffer.alloc(0), stderr: '', code: null, truncated: false, timedOut: false };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, [...args], {
        cwd: options.cwd,
        env: options.env,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      // A cwd that is a file fails synchronously (ENOTDIR); a missing cwd fails through 'error'.
      resolve({ ...empty, spawnError: error as NodeJS.ErrnoException });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const run = { ...empty };
    const timer = setTimeout(() => {
      run.timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (run.truncated) return;
      const room = options.maxStdoutBytes - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (chunk.length > room) {
        run.truncated = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      run.stderr = (run.stderr + chunk.toString('utf8')).slice(-maxStderrChars);
    });
    let spawnError: NodeJS.ErrnoException | undefined;
    child.on('error', (error) => {
      spawnError = error;
    });
    // A process that exits before reading its stdin must not crash us with EPIPE.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input ?? '');
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ...run, stdout: Buffer.concat(chunks), code, ...(spawnError ? { spawnError } : {}) });
    });
  });
}
