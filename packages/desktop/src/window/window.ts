import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { type FromWindow, fromWindow, type ToWindow } from './messages.ts';

export interface WindowEvents {
  /** The page rendered a heading (each time it changes): the SPA is on screen. */
  onPage(heading: string, title: string): void;
  /** A link the window does not load itself. */
  onExternal(url: string): void;
  /** The window is gone: closed by the user, or its process ended. */
  onClosed(): void;
}

/** The window process, as the shell drives it. */
export interface DesktopWindow {
  pid: number;
  focus(url?: string): void;
  setAttention(count: number): void;
  /** The page's "Notify me when work ends" choice, as the page last said (off until it has). */
  notifyChoice(): boolean;
  /** Closes the window and answers once its process has ended. */
  close(): Promise<void>;
}

export interface OpenWindowOptions {
  url: string;
  /** Where WebKit keeps the page's storage (so its choices and key outlive the window). */
  dataDir: string;
  apiKey?: string | undefined;
}

/** A window process started ahead of the page it will show (its start overlaps the service's). */
export interface WindowProcess {
  /** Shows `url`; answers the window once it is on screen, or why none can be shown here. */
  open(options: OpenWindowOptions, events: WindowEvents): Promise<DesktopWindow | { unavailable: string }>;
  /** Ends it unused (the service did not start). */
  discard(): Promise<void>;
}

/** The window process's entry: `host.ts` beside this file from sources (tests), `host.js` once built. */
const hostFile = new URL(`./host${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)
  .pathname;

/**
 * Starts the window process: it loads GTK and WebKit and connects to the display while the caller starts
 * the service, then waits for `open`.
 */
export function startWindowProcess(env: NodeJS.ProcessEnv = process.env): WindowProcess {
  const child = spawn(process.execPath, [hostFile], { stdio: ['pipe', 'pipe', 'pipe'], env });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    if (env.KEEL_DESKTOP_DEBUG) process.stderr.write(chunk);
    stderr = (stderr + chunk).slice(-4000);
  });
  child.stdin?.on('error', () => {}); // a window process that died: its exit says so
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let events: WindowEvents | undefined;
  let notifyChoice = false;
  const first = new Promise<FromWindow | undefined>((resolve) => {
    child.once('exit', () => resolve(undefined));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const parsed = fromWindow.safeParse(parseJson(line));
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'shown' || message.type === 'unavailable') resolve(message);
      else if (message.type === 'page') events?.onPage(message.heading, message.title);
      else if (message.type === 'external') events?.onExternal(message.url);
      else if (message.type === 'notify_choice') notifyChoice = message.on;
    });
  });
  const send = (message: ToWindow) => {
    if (child.stdin?.writable) child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  const close = async () => {
    send({ type: 'close' });
    child.stdin?.end();
    await ended;
  };
  return {
    discard: close,
    async open(options, listeners) {
      events = listeners;
      send({ type: 'open', url: options.url, data_dir: options.dataDir, api_key: options.apiKey });
      const answer = await first;
      if (answer?.type !== 'shown') {
        await close();
        return { unavailable: answer?.type === 'unavailable' ? answer.reason : windowDied(child, stderr) };
      }
      child.once('exit', () => listeners.onClosed());
      return {
        pid: child.pid as number,
        focus: (url) => send({ type: 'focus', ...(url ? { url } : {}) }),
        setAttention: (count) => send({ type: 'attention', count }),
        notifyChoice: () => notifyChoice,
        close,
      };
    },
  };
}

function windowDied(child: ChildProcess, stderr: string): string {
  const last = stderr.trim().split('\n').slice(-3).join(' ');
  return `the window process ended (exit ${child.exitCode ?? child.signalCode})${last ? `: ${last}` : ''}`;
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}
