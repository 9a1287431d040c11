import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { type LogFields, type LogLevel, logLevels, type ServiceLog } from '../logging/index.ts';

/** The flags every service's `run` command takes. */
export interface ServeFlags {
  port: number;
  host: string;
  allowedHost: string[];
  insecureNoAuth?: boolean;
  /** The least severe level the service logs (`--log-level`, else the service's variable, else info). */
  logLevel: LogLevel;
}

export interface ServiceProgram<F extends ServeFlags> {
  /** The program's name: `keel-web`, `keel-workbench`. */
  name: string;
  description: string;
  /** What `run --help` says the command does. */
  runDescription: string;
  /** The environment variable holding the API key (named in `--insecure-no-auth`'s help). */
  keyVariable: string;
  /** The environment variable `--log-level` defaults to: `WORKBENCH_LOG_LEVEL`, `RUNTIME_LOG_LEVEL`. */
  logLevelVariable: string;
  /** Options of this service's own, added to `run` after the shared ones. */
  options?(run: Command): void;
  /** Starts the service with the parsed flags; answers the exit code once it has stopped. */
  serve(flags: F): Promise<number>;
  version: string;
}

/**
 * `<name> run [--port 8000] [--host 127.0.0.1] [--allowed-host <name>…] [--insecure-no-auth]
 * [--log-level info]`: the one command line of Keel's services. Returns the exit code (usage errors, a
 * bad log level among them: commander's; failures: 1, with the message on stderr).
 */
export async function runServiceProgram<F extends ServeFlags>(
  argv: string[],
  service: ServiceProgram<F>,
): Promise<number> {
  let exitCode = 0;
  const program = new Command(service.name)
    .description(service.description)
    .version(service.version, '-V, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError(`(run ${service.name} --help for usage)`);
  const run = program
    .command('run')
    .description(service.runDescription)
    .option('-p, --port <port>', 'port to listen on (0: any free port)', port, 8000)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--allowed-host <name>', 'also answer requests for this Host name (repeatable)', collect, [])
    .option(
      '--insecure-no-auth',
      `listen beyond loopback without ${service.keyVariable} (anyone reaching it runs commands as you)`,
    )
    .addOption(
      new Option('--log-level <level>', 'the least severe lines logged (stderr and the log file)')
        .choices(logLevels)
        .env(service.logLevelVariable)
        .default('info'),
    );
  service.options?.(run);
  run.action(async (flags: F) => {
    exitCode = await service.serve(flags);
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

export interface Listening {
  /** Starts listening; answers the service's URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
  /** Where it listens, for the error message when it cannot. */
  address: string;
  /** Printed on stdout once listening. */
  announce(url: string): string;
  /** Printed on stderr once listening, before the announcement (warnings, notes), if any. */
  notes?: () => string[];
  /** Told of the start (with the URL and `started`) and of the stop. */
  log?: ServiceLog;
  /** What the start line says besides the URL: the data directory, the log file. */
  started?: LogFields;
}

/** Listens, says where, serves until SIGINT or SIGTERM, then closes cleanly. Answers the exit code. */
export async function serveUntilStopped(service: Listening): Promise<number> {
  let url: string;
  try {
    url = await service.listen();
  } catch (error) {
    await service.close();
    process.stderr.write(`Error: cannot listen on ${service.address}: ${(error as Error).message}\n`);
    return 1;
  }
  // Heard before the announcement: whoever stops the service as soon as it is announced stops it cleanly.
  const stopped = new Promise<NodeJS.Signals>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  // Warnings and notes first: whoever waits for the announcement has them by then.
  for (const note of service.notes?.() ?? []) process.stderr.write(note);
  process.stdout.write(`${service.announce(url)}\n`);
  service.log?.info('started', { url, ...service.started, pid: process.pid });
  const signal = await stopped;
  service.log?.info('stopping', { signal });
  await service.close();
  service.log?.info('stopped');
  return 0;
}

/** A count option's value: a whole number above 0, or the option is refused with usage help. */
export function positiveInt(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0)
    throw new InvalidArgumentError('must be a whole number above 0');
  return parsed;
}

/** A repeatable option's values. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function port(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65535)
    throw new InvalidArgumentError('must be a port number, 0-65535');
  return parsed;
}
