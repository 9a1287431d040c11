import { resolve } from 'node:path';
import { createRuntime, type Runtime, toErrorObject } from '@keel/runtime';
import type { Command } from 'commander';
import type { CliIo } from './io.ts';
import { stringifyForTerminal, terminalSafe } from './render/terminal-safe.ts';

export interface WorkdirFlags {
  workdir?: string;
}

/** Adds `-w, --workdir`: the directory whose configuration picks the store, as in `keel run`. */
export function workdirOption(command: Command): Command {
  return command.option(
    '-w, --workdir <dir>',
    'directory whose configuration picks the store (default: current directory)',
  );
}

/** The workdir a command works on: `--workdir` resolved against the caller's directory. */
export function workdirOf(io: CliIo, flags: WorkdirFlags): string {
  return resolve(io.cwd, flags.workdir ?? '.');
}

/**
 * Runs a command's action with a runtime on the workdir's store. Any error becomes `Error [CODE]: message`
 * on stderr and exit code 1, never a stack trace; the runtime is closed in every case.
 */
export async function withRuntime(
  io: CliIo,
  flags: WorkdirFlags,
  action: (runtime: Runtime) => Promise<number | undefined> | number | undefined,
): Promise<void> {
  let runtime: Runtime | undefined;
  try {
    runtime = createRuntime({ env: io.env, workdir: workdirOf(io, flags) });
    const code = await action(runtime);
    if (code !== undefined) io.exitCode = code;
  } catch (error) {
    printError(io, error);
    io.exitCode = 1;
  } finally {
    await runtime?.close().catch(() => undefined);
  }
}

/** `Error [CODE]: message` on stderr (terminal-safe: a message may quote a model, a tool or a file). */
export function printError(io: CliIo, error: unknown): void {
  io.err.write(`${errorLine(error)}\n`);
}

/** `Error [CODE]: message`, terminal-safe. */
export function errorLine(error: unknown): string {
  const { code, message } = toErrorObject(error);
  return terminalSafe(`Error [${code}]: ${message}`);
}

/** Writes one JSON document on stdout (terminal-safe JSON: records hold text from models and tools). */
export function printJson(io: CliIo, value: unknown): void {
  io.out.write(`${stringifyForTerminal(value, 2)}\n`);
}

/** What to add to a `keel …` command shown to the user so it finds the same store: ` -w <dir>` if one was given. */
export function keelArgsOf(io: CliIo, flags: WorkdirFlags): string {
  if (!flags.workdir) return '';
  const dir = workdirOf(io, flags);
  return ` -w ${/^[\w./:@%+=,-]+$/.test(dir) ? dir : JSON.stringify(dir)}`;
}
