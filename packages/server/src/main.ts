import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { createServer } from './server.ts';
import { version } from './version.ts';

interface RunFlags {
  port: number;
  host: string;
  workdir?: string;
}

/** `keel-web run --port <port>`: serves until SIGINT or SIGTERM, then closes cleanly. Returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = new Command('keel-web')
    .description('Keel web server: the runtime over HTTP')
    .version(version, '-V, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError('(run keel-web --help for usage)');
  program
    .command('run')
    .description('Start the web server')
    .option('-p, --port <port>', 'port to listen on (0: any free port)', port, 8000)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('-w, --workdir <dir>', 'directory whose configuration picks the default store (default: cwd)')
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
  const app = await createServer({ workdir: resolve(flags.workdir ?? '.') });
  try {
    await app.listen({ port: flags.port, host: flags.host });
  } catch (error) {
    await app.close();
    process.stderr.write(
      `Error: cannot listen on ${flags.host}:${flags.port}: ${(error as Error).message}\n`,
    );
    return 1;
  }
  const address = app.server.address();
  const shown =
    typeof address === 'object' && address ? `http://${flags.host}:${address.port}` : String(address);
  process.stdout.write(`Keel web server listening on ${shown}\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await app.close();
  return 0;
}

function port(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65535)
    throw new InvalidArgumentError('must be a port number, 0-65535');
  return parsed;
}
