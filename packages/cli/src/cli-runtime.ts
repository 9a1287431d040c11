import { resolve } from 'node:path';
import { createRuntime, type Runtime, toErrorObject } from '@keel/runtime';
import type { Command } from 'commander';
import type { CliIo } from './io.ts';

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

/** `Error [CODE]: message` on stderr. */
export function printError(io: CliIo, error: unknown): void {
  const { code, message } = toErrorObject(error);
  io.err.write(`Error [${code}]: ${message}\n`);
}

/** Writes one JSON document on stdout. */
export function printJson(io: CliIo, value: unknown): void {
  io.out.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** What to add to a `keel …` command shown to the user so it finds the same store: ` -w <dir>` if one was given. */
export function keelArgsOf(io: CliIo, flags: WorkdirFlags): string {
  if (!flags.workdir) return '';
  const dir = workdirOf(io, flags);
  return ` -w ${/^[\w./:@%+=,-]+$/.test(dir) ? dir : JSON.stringify(dir)}`;
}
