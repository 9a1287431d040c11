import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { RunnerConfig } from '../contract.ts';

/** The editor agent run when a runner config names no binary: opencode speaks ACP with `opencode acp`. */
export const defaultAgent = { binary: 'opencode', args: ['acp'] } as const;

export interface AgentCommand {
  /** Absolute path of the binary. */
  binary: string;
  args: string[];
}

/**
 * The agent's command from the runner config: `binary_path` + `extra_args`, else `opencode acp` (+ extra_args).
 * A bare name is looked up on the environment's PATH, then in `agentsDir/node_modules/.bin` (agents the
 * workbench installed itself); undefined when it is nowhere.
 */
export async function agentCommandOf(
  config: RunnerConfig,
  env: NodeJS.ProcessEnv,
  agentsDir: string | undefined,
): Promise<AgentCommand | undefined> {
  const name = config.binary_path || defaultAgent.binary;
  const args = config.binary_path ? [...config.extra_args] : [...defaultAgent.args, ...config.extra_args];
  const binary = await findBinary(name, env, agentsDir);
  return binary ? { binary, args } : undefined;
}

/** What a missing agent is called in messages: the configured path or name. */
export function agentNameOf(config: RunnerConfig): string {
  return config.binary_path || defaultAgent.binary;
}

/** `name` as an absolute path: itself when it has a slash, else the first executable of that name on PATH. */
export async function findBinary(
  name: string,
  env: NodeJS.ProcessEnv,
  agentsDir: string | undefined,
): Promise<string | undefined> {
  if (isAbsolute(name) || name.includes('/')) {
    const path = resolve(name);
    return (await isExecutable(path)) ? path : undefined;
  }
  const dirs = [
    ...(env.PATH ?? '').split(delimiter).filter(Boolean),
    ...(agentsDir ? [join(agentsDir, 'node_modules', '.bin')] : []),
  ];
  for (const dir of dirs) {
    const path = join(dir, name);
    if (await isExecutable(path)) return path;
  }
  return undefined;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The agent's `--version` answer (first line), or why it gave none. */
export function versionOf(
  command: AgentCommand,
  env: NodeJS.ProcessEnv,
): Promise<{ version?: string; error?: string }> {
  return new Promise((done) => {
    execFile(command.binary, ['--version'], { env, timeout: 15_000 }, (error, stdout, stderr) => {
      const line = `${stdout}`.trim().split('\n')[0]?.trim();
      if (error) done({ error: `${error.message}${stderr ? `: ${`${stderr}`.trim()}` : ''}` });
      else done(line ? { version: line } : { error: 'it printed no version' });
    });
  });
}

const stderrLines = 20;

/**
 * The agent as a child process in its own process group (so its tools and MCP servers go with it), with the
 * last lines of its stderr kept for error reports.
 */
export class AgentProcess {
  readonly child: ChildProcess;
  /** Settles when the process has exited: its code or signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #stderr: string[] = [];
  #partial = '';
  #onActivity: () => void = () => undefined;

  constructor(command: AgentCommand, cwd: string, env: NodeJS.ProcessEnv) {
    this.child = spawn(command.binary, command.args, {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Own process group: abort kills the agent and everything it started with one signal.
      detached: true,
    });
    this.exited = new Promise((done) => {
      this.child.once('exit', (code, signal) => done({ code, signal }));
      // A spawn failure (EACCES, a vanished binary) emits 'error' and no 'exit'.
      this.child.once('error', (error) => {
        this.#keep(`${error.message}\n`);
        done({ code: null, signal: null });
      });
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.#keep(chunk.toString('utf8'));
      this.#onActivity();
    });
    this.child.stdout?.on('data', () => this.#onActivity());
  }

  /** Called on every byte the agent writes: the idle timeout's heartbeat. */
  onActivity(listener: () => void): void {
    this.#onActivity = listener;
  }

  /** The last lines the agent wrote to stderr. */
  stderrTail(): string {
    return [...this.#stderr, this.#partial].filter(Boolean).join('\n').trim();
  }

  /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once the agent has exited. */
  async kill(graceMs = 2_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null || this.child.pid === undefined)
      return;
    this.#signal('SIGTERM');
    const timer = setTimeout(() => this.#signal('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
    // Whatever the agent started and left behind in its group goes too.
    this.#signal('SIGKILL');
  }

  #signal(signal: NodeJS.Signals): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, signal);
    } catch {
      // The group is already gone.
    }
  }

  #keep(text: string): void {
    const lines = (this.#partial + text).split('\n');
    this.#partial = lines.pop() ?? '';
    this.#stderr.push(...lines.filter((line) => line.trim()));
    if (this.#stderr.length > stderrLines) this.#stderr = this.#stderr.slice(-stderrLines);
    if (this.#partial.length > 4_000) this.#partial = this.#partial.slice(-4_000);
  }
}
