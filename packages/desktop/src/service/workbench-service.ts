import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The workbench the shell shows: one it started (and stops), or one that was already running. */
export interface WorkbenchService {
  url: string;
  /** The service's process id (the one the workbench logged, for one already running). */
  pid: number;
  /** Whether the shell started it, and so stops it when it quits. */
  owned: boolean;
  /** Stops it the way its own shutdown does (SIGTERM), when the shell started it; answers once it is gone. */
  stop(): Promise<void>;
  /** Called when the service ends by itself (a crash), not through `stop()`. */
  onExit(listener: (code: number | null) => void): void;
}

/** The workbench's own program: `bin/keel-workbench.js` of the installed `@keel/workbench`. */
export function workbenchBin(): string {
  // The package exports only its entry (`dist/index.js`, or `src/index.ts` from sources): one level below
  // the package's folder either way.
  const entry = fileURLToPath(import.meta.resolve('@keel/workbench'));
  return join(dirname(dirname(entry)), 'bin', 'keel-workbench.js');
}

export interface StartOptions {
  env: NodeJS.ProcessEnv;
  /** The port to ask for first (the last one used, so the page's origin and storage stay the same). */
  port?: number | undefined;
}

/**
 * Starts `keel-workbench run` on loopback with its defaults, as a child in its own process group (a
 * Ctrl-C at the terminal reaches the shell, which stops the service cleanly, not both at once), and
 * answers once it has announced its URL. Its own program, so its shutdown path (SIGTERM: running turns
 * stopped and recorded) is the one `npm start` has. A preferred port that is taken falls back to any free one.
 */
export async function startWorkbench(options: StartOptions): Promise<WorkbenchService> {
  if (options.port && (await portFree(options.port))) {
    const started = await startOn(options.port, options);
    if (!('failed' in started)) return started;
  }
  const started = await startOn(0, options);
  if ('failed' in started) throw new Error(`the workbench did not start: ${started.failed}`);
  return started;
}

async function startOn(port: number, options: StartOptions): Promise<WorkbenchService | { failed: string }> {
  const command = [process.execPath, workbenchBin(), 'run', '--port', String(port), '--host', '127.0.0.1'];
  const [program, ...args] = orphanProof(command);
  // Its log and warnings go straight to the shell's stderr (the terminal), not through the shell: a shell
  // killed with -9 must not leave the stopping service writing into a closed pipe. Its stdout carries only
  // the announcement, written once at the start.
  const child = spawn(program as string, args, {
    env: options.env,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  let output = '';
  const url = await new Promise<string | undefined>((resolve) => {
    const look = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-8000);
      const announced = /Keel workbench listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (announced) resolve(announced);
    };
    child.stdout?.on('data', look);
    child.once('exit', () => resolve(undefined));
  });
  if (!url) {
    await exited(child);
    return { failed: `exit ${child.exitCode ?? child.signalCode} (its error is above)` };
  }
  return ownedService(child, url);
}

const stopPatienceMs = 30_000;

/**
 * The service in its own process group does not hear the terminal's Ctrl-C, nor would it hear the shell
 * die (kill -9, a crash). On Linux, util-linux's `setpriv --pdeathsig` (it then becomes the service:
 * same pid) has the kernel send it SIGTERM, its clean stop, when the shell is gone.
 */
function orphanProof(command: string[]): string[] {
  if (process.platform !== 'linux' || !existsSync(setpriv)) return command;
  return [setpriv, '--pdeathsig', 'SIGTERM', '--', ...command];
}
const setpriv = '/usr/bin/setpriv';

function ownedService(child: ChildProcess, url: string): WorkbenchService {
  let stopping = false;
  const listeners: ((code: number | null) => void)[] = [];
  child.once('exit', (code) => {
    if (!stopping) for (const listener of listeners) listener(code);
  });
  return {
    url,
    pid: child.pid as number,
    owned: true,
    onExit: (listener) => listeners.push(listener),
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        // Its shutdown records the running turns as stopped; one that hangs past this is ended.
        const late = setTimeout(() => child.kill('SIGKILL'), stopPatienceMs);
        await exited(child);
        clearTimeout(late);
      }
      // Whatever the service started in its group and left behind goes with it: the shell leaves nothing.
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // none left (ESRCH)
      }
    },
  };
}

/** A service that was running before the shell: shown, never stopped by it. */
export function attachedService(url: string, pid: number): WorkbenchService {
  return { url, pid, owned: false, stop: async () => {}, onExit: () => {} };
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
