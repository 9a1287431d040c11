import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { type CommandName, commandHelp, helpTerm } from './commands/descriptions.ts';
import { commandLoaders, isCommandName } from './commands/table.ts';
import type { CliIo } from './io.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * Builds the `keel` program for `argv`. Only the command being run is loaded in full (its module imports
 * the runtime); the others are listed by name and description for `keel --help`.
 */
export async function buildProgram(io: CliIo, argv: string[] = []): Promise<Command> {
  const program = new Command('keel')
    .description('Keel: a local coding agent. Runs against any chat-completions-compatible model.')
    .version(version, '-V, --version', 'print the version')
    .configureOutput({
      writeOut: (text) => io.out.write(text),
      writeErr: (text) => io.err.write(text),
    })
    .exitOverride()
    .showHelpAfterError('(run keel --help for usage)')
    // Commands not loaded are listed as they would be if they were (`run [options] <prompt>`).
    .configureHelp({
      subcommandTerm: (command) =>
        isCommandName(command.name()) ? helpTerm(command.name() as CommandName) : command.name(),
    });
  const words = argv.slice(2).filter((arg) => !arg.startsWith('-'));
  // `keel help run` shows the full help of `run`, so `run` is the one to load.
  const wanted = words[0] === 'help' ? words[1] : words[0];
  for (const [name, help] of Object.entries(commandHelp)) {
    if (name === wanted && isCommandName(name)) (await commandLoaders[name]())(program, io);
    else program.command(name).description(help.description);
  }
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
    await (await buildProgram(io, argv)).parseAsync(argv);
    return io.exitCode;
  } catch (error) {
    // --help and --version end through here with exit code 0; usage errors with 1.
    if (error instanceof CommanderError) return error.exitCode;
    // Commands report their own errors; anything that still gets here is shown the same way.
    const { printError } = await import('./cli-runtime.ts');
    printError(io, error);
    return 1;
  }
}
