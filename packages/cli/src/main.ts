import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { printError } from './cli-runtime.ts';
import { registerApprovals } from './commands/approvals.ts';
import { registerArtifacts } from './commands/artifacts.ts';
import { registerChat } from './commands/chat.ts';
import { registerConfig } from './commands/config.ts';
import { registerInit } from './commands/init.ts';
import { registerRun } from './commands/run.ts';
import { registerRuns } from './commands/runs.ts';
import { registerSkills } from './commands/skills.ts';
import { registerTimeline } from './commands/timeline.ts';
import { registerWorker } from './commands/worker.ts';
import type { CliIo } from './io.ts';
import { registerTui } from './tui/index.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Builds the `keel` program; each command registers itself. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('keel')
    .description('Keel: a local coding agent. Runs against any chat-completions-compatible model.')
    .version(version, '-V, --version', 'print the version')
    .configureOutput({
      writeOut: (text) => io.out.write(text),
      writeErr: (text) => io.err.write(text),
    })
    .exitOverride()
    .showHelpAfterError('(run keel --help for usage)');
  registerRun(program, io);
  registerChat(program, io);
  registerRuns(program, io);
  registerApprovals(program, io);
  registerTimeline(program, io);
  registerArtifacts(program, io);
  registerWorker(program, io);
  registerTui(program, io);
  registerSkills(program, io);
  registerConfig(program, io);
  registerInit(program, io);
  return program;
}

/** Runs `keel` with `argv` (as process.argv) and returns the exit code. */
export async function main(argv: string[], overrides: Partial<CliIo> = {}): Promise<number> {
  const io: CliIo = {
    out: process.stdout,
    err: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    exitCode: 0,
    ...overrides,
  };
  try {
    await buildProgram(io).parseAsync(argv);
    return io.exitCode;
  } catch (error) {
    // --help and --version end through here with exit code 0; usage errors with 1.
    if (error instanceof CommanderError) return error.exitCode;
    // Commands report their own errors; anything that still gets here is shown the same way.
    printError(io, error);
    return 1;
  }
}
