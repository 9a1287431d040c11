import { tmpdir } from 'node:os';
import { unconfinedCommandsNote } from '@keel/runtime';
import { readEnv } from '@keel/runtime/internal';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { createWorkbench } from './app.ts';
import { version } from './version.ts';

interface RunFlags {
  port: number;
  host: string;
  allowedHost: string[];
  insecureNoAuth?: boolean;
}

/** `keel-workbench run [--port 8000] [--host 127.0.0.1]`: serves until SIGINT or SIGTERM. Returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = new Command('keel-workbench')
    .description('Keel workbench: a requirement through five stages to a merge request')
    .version(version, '-V, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError('(run keel-workbench --help for usage)');
  program
    .command('run')
    .description('Start the workbench service (data under WORKBENCH_HOME, default ~/.workbench)')
    .option('-p, --port <port>', 'port to listen on (0: any free port)', port, 8000)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--allowed-host <name>', 'also answer requests for this Host name (repeatable)', collect, [])
    .option(
      '--insecure-no-auth',
      'listen beyond loopback without WORKBENCH_AUTH_API_KEY (anyone reaching it runs commands as you)',
    )
    .action(async (flags: RunFlags) => {
      exitCode = await serve(flags);
    });
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    process.stderr.write(`Error: ${(error as Error).message}\n`);
    return 1;
  }
}

async function serve(flags: RunFlags): Promise<number> {
  const workbench = await createWorkbench({
    allowedHosts: flags.allowedHost,
    insecureNoAuth: flags.insecureNoAuth === true,
  });
  let url: string;
  try {
    url = await workbench.listen(flags.port, flags.host);
  } catch (error) {
    await workbench.close();
    process.stderr.write(
      `Error: cannot listen on ${flags.host}:${flags.port}: ${(error as Error).message}\n`,
    );
    return 1;
  }
  if (workbench.warning) process.stderr.write(`\n${workbench.warning}\n\n`);
  process.stdout.write(`Keel workbench listening on ${url} (API docs: ${url}/docs)\n`);
  // Keel's runs here never trust a project file by default, so the user's global config decides.
  const note = unconfinedCommandsNote(readEnv(process.env).home, tmpdir(), false);
  if (note) process.stderr.write(`Note (the Keel runner): ${note}\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await workbench.close();
  return 0;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function port(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65535)
    throw new InvalidArgumentError('must be a port number, 0-65535');
  return parsed;
}
