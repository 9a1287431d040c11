import { resolve } from 'node:path';
import { unconfinedCommandsNote } from '@keel/runtime';
import { readEnv } from '@keel/runtime/internal';
import { checkBind } from '@keel/service';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { listFromEnv } from './auth.ts';
import { createServer } from './server.ts';
import { version } from './version.ts';

interface RunFlags {
  port: number;
  host: string;
  workdir?: string;
  allowedHost: string[];
  allowedOrigin: string[];
  insecureNoAuth?: boolean;
  trustProjectConfig?: boolean;
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
    .option('--allowed-host <name>', 'also answer requests for this Host name (repeatable)', collect, [])
    .option(
      '--allowed-origin <origin>',
      'also take requests and WebSockets from this origin (repeatable)',
      collect,
      [],
    )
    .option(
      '--insecure-no-auth',
      'listen beyond loopback without RUNTIME_AUTH_API_KEY (anyone reaching it runs commands as you)',
    )
    .option(
      '--trust-project-config',
      "apply every key of a workdir's .runtime/config.json (commands, endpoints, sandbox) without keel trust",
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
  const bind = checkBind({
    host: flags.host,
    hasKey: Boolean(process.env.RUNTIME_AUTH_API_KEY),
    insecureNoAuth: flags.insecureNoAuth === true,
    service: 'keel-web',
    keyHint: 'RUNTIME_AUTH_API_KEY',
  });
  if (bind.refusal) {
    process.stderr.write(`Error: ${bind.refusal}\n`);
    return 1;
  }
  if (bind.warning) process.stderr.write(`\n${bind.warning}\n\n`);
  const trust = flags.trustProjectConfig === true ? true : undefined;
  const app = await createServer({
    ...(trust ? { runtime: { trustProjectConfig: trust } } : {}),
    workdir: resolve(flags.workdir ?? '.'),
    allowedHosts: [...listFromEnv(process.env.RUNTIME_ALLOWED_HOSTS), ...flags.allowedHost],
    allowedOrigins: [...listFromEnv(process.env.RUNTIME_ALLOWED_ORIGINS), ...flags.allowedOrigin],
  });
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
  const note = unconfinedCommandsNote(readEnv(process.env).home, resolve(flags.workdir ?? '.'), trust);
  if (note) process.stderr.write(`Note: ${note}\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await app.close();
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
