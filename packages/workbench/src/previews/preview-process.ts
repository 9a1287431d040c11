import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { Preview, PreviewLog, PreviewState } from '@keel/protocol/workbench';
import type { PreviewLaunch } from './preview-launch.ts';
import { descendants, signalAll } from './process-tree.ts';

/** What a preview tells as it runs: its record on every change, its output as it comes. */
export interface PreviewListener {
  changed(preview: Preview): void;
  output(repository: string, seq: number, text: string): void;
}

/** Timings of a preview's process (tests shorten them). */
export interface PreviewTimings {
  /** How long a stopped preview's processes get after SIGTERM before SIGKILL (default 5 s). */
  graceMs?: number;
  /** How often a starting preview's port is tried (default 250 ms). */
  probeMs?: number;
  /** How long a starting preview's port may stay silent before its record says so (default 60 s). */
  silentMs?: number;
}

// The output kept for GET …/log: its end (where a server says why it stopped), within this many characters.
const keptChars = 200_000;

/**
 * One preview: a long-running command started in its own process group (in the sandbox, its own PID
 * namespace too), its output kept (the tail) and told as it comes, `running` once its port answers, and a
 * stop that leaves nothing behind: SIGTERM to every process it started, then, after the grace period,
 * SIGKILL to its group and to each of them (bubblewrap's end takes the whole sandbox with it).
 */
export class PreviewProcess {
  readonly repository: string;
  readonly command: string;
  readonly port: number;
  /** Settles once the process ended and its record says how (never rejects). */
  readonly ended: Promise<void>;
  readonly #child: ChildProcess;
  readonly #listener: PreviewListener;
  readonly #sandboxed: boolean;
  readonly #graceMs: number;
  readonly #probeMs: number;
  readonly #silentMs: number;
  readonly #startedAt = new Date().toISOString();
  #state: PreviewState = 'starting';
  #stopping = false;
  #exit: { code: number | null; signal: string | null; at: string } | null = null;
  #error: string | null = null;
  #probe: NodeJS.Timeout | undefined;
  #silence: NodeJS.Timeout | undefined;
  #seq = 0;
  #chunks: { seq: number; text: string }[] = [];
  #chars = 0;
  #truncated = false;

  constructor(
    launch: PreviewLaunch,
    info: { repository: string; command: string; port: number },
    listener: PreviewListener,
    timings: PreviewTimings = {},
  ) {
    this.repository = info.repository;
    this.command = info.command;
    this.port = info.port;
    this.#listener = listener;
    this.#sandboxed = launch.sandboxed;
    this.#graceMs = timings.graceMs ?? 5000;
    this.#probeMs = timings.probeMs ?? 250;
    this.#silentMs = timings.silentMs ?? 60_000;
    const [file, ...args] = launch.argv;
    // Detached: a process group of its own, which a stop signals as a whole.
    this.#child = spawn(file as string, args, {
      cwd: launch.cwd,
      env: launch.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.#child.stdout, this.#child.stderr]) {
      const decoder = new StringDecoder('utf8');
      stream?.on('data', (chunk: Buffer) => this.#append(decoder.write(chunk)));
      stream?.on('end', () => this.#append(decoder.end()));
    }
    this.ended = new Promise<void>((resolve) => {
      const finish = (code: number | null, signal: string | null, error?: Error) => {
        if (this.#exit) return;
        clearTimeout(this.#probe);
        clearTimeout(this.#silence);
        this.#exit = { code, signal, at: new Date().toISOString() };
        if (error) this.#error = `the command could not be started: ${error.message}`;
        // What it left running in its group would otherwise outlive it.
        signalAll([], 'SIGKILL', this.#child.pid);
        this.#set(this.#stopping ? 'stopped' : 'exited');
        resolve();
      };
      this.#child.once('exit', (code, signal) => finish(code, signal));
      this.#child.once('error', (error) => finish(null, null, error));
    });
    this.#tryPort();
    this.#silence = setTimeout(() => this.#noteSilence(), this.#silentMs);
    this.#silence.unref();
  }

  /** Whether it still runs (starting or running). */
  get live(): boolean {
    return this.#exit === null;
  }

  view(): Preview {
    return {
      repository: this.repository,
      command: this.command,
      state: this.#state,
      port: this.port,
      url: `http://127.0.0.1:${this.port}`,
      pid: this.#exit ? null : (this.#child.pid ?? null),
      exit_code: this.#exit?.code ?? null,
      signal: this.#exit?.signal ?? null,
      error: this.#error,
      started_at: this.#startedAt,
      ended_at: this.#exit?.at ?? null,
    };
  }

  log(): PreviewLog {
    return {
      repository: this.repository,
      log: this.#chunks.map((chunk) => chunk.text).join(''),
      seq: this.#seq,
      truncated: this.#truncated,
    };
  }

  /** Stops it and everything it started; answers once it ended. */
  async stop(): Promise<void> {
    if (!this.live) return;
    this.#stopping = true;
    const pid = this.#child.pid;
    if (pid === undefined) return await this.ended;
    // Bubblewrap itself is not sent SIGTERM: its end would SIGKILL the sandbox at once, with no grace.
    signalAll(descendants(pid), 'SIGTERM', this.#sandboxed ? undefined : pid);
    const timer = setTimeout(() => signalAll(descendants(pid), 'SIGKILL', pid), this.#graceMs);
    await this.ended;
    clearTimeout(timer);
  }

  #append(text: string): void {
    if (text === '') return;
    this.#seq += 1;
    this.#chunks.push({ seq: this.#seq, text });
    this.#chars += text.length;
    while (this.#chars > keptChars && this.#chunks.length > 1) {
      this.#chars -= this.#chunks.shift()?.text.length ?? 0;
      this.#truncated = true;
    }
    this.#listener.output(this.repository, this.#seq, text);
  }

  #set(state: PreviewState): void {
    this.#state = state;
    this.#listener.changed(this.view());
  }

  /**
   * Still starting after a while: most often the command does not listen where it was told (a dev server
   * that ignores PORT, or listens on another host). It keeps being tried; the record says what to check.
   */
  #noteSilence(): void {
    if (this.#state !== 'starting' || !this.live) return;
    this.#error =
      `nothing answers on port ${this.port} after ${Math.round(this.#silentMs / 1000)} s: the command may ` +
      `not listen on $PORT (${this.port}) at 127.0.0.1; its log says where it listens. Edit the preview ` +
      "command in the project's settings to pass the port (e.g. --port $PORT), then start it again.";
    this.#listener.changed(this.view());
  }

  /** While starting: tries the port until it answers (then `running`), or the process ends. */
  #tryPort(): void {
    if (this.#state !== 'starting' || !this.live) return;
    const socket = connect({ host: '127.0.0.1', port: this.port });
    socket.once('connect', () => {
      socket.destroy();
      if (this.#state !== 'starting' || !this.live) return;
      clearTimeout(this.#silence);
      this.#error = null;
      this.#set('running');
    });
    socket.once('error', () => {
      socket.destroy();
      this.#probe = setTimeout(() => this.#tryPort(), this.#probeMs);
      this.#probe.unref();
    });
  }
}
