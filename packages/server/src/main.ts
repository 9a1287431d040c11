import { join, resolve } from 'node:path';
import { unconfinedCommandsNote } from '@keel/runtime';
import { readEnv } from '@keel/runtime/internal';
import {
  checkBind,
  collect,
  createServiceLog,
  positiveInt,
  runServiceProgram,
  type ServeFlags,
  type ServiceLog,
  serveUntilStopped,
} from '@keel/service';
import { listFromEnv } from './auth.ts';
import { createServer } from './server.ts';
import { version } from './version.ts';

/** Runs keel-web executes at once unless told otherwise: a 2-core machine's share of model turns and tools. */
const defaultMaxRunning = 8;

interface RunFlags extends ServeFlags {
  workdir?: string;
  allowedOrigin: string[];
  trustProjectConfig?: boolean;
  queueOnly?: boolean;
  maxRunning: number;
}

/**
 * `keel-web run --port <port> [--log-level info]`: serves until SIGINT or SIGTERM, then closes cleanly,
 * logging to stderr and `{RUNTIME_HOME}/logs/keel-web.log`. Returns the exit code.
 */
export function main(argv: string[]): Promise<number> {
  return runServiceProgram<RunFlags>(argv, {
    name: 'keel-web',
    description: 'Keel web server: the runtime over HTTP',
    runDescription: 'Start the web server',
    keyVariable: 'RUNTIME_AUTH_API_KEY',
    logLevelVariable: 'RUNTIME_LOG_LEVEL',
    version,
    options: (run) =>
      run
        .option('-w, --workdir <dir>', 'directory whose configuration picks the default store (default: cwd)')
        .option(
          '--allowed-origin <origin>',
          'also take requests and WebSockets from this origin (repeatable)',
          collect,
          [],
        )
        .option(
          '--trust-project-config',
          "apply every key of a workdir's .runtime/config.json (commands, endpoints, sandbox) without keel trust",
        )
        .option('--queue-only', 'execute no run here: every run started over HTTP waits for a `keel worker`')
        .option(
          '--max-running <n>',
          'execute at most this many runs here at once; the rest wait queued (for here or any `keel worker`)',
          positiveInt,
          defaultMaxRunning,
        ),
    serve,
  });
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
  const runtimeDir = readEnv(process.env).home;
  const log = createServiceLog({ level: flags.logLevel, file: join(runtimeDir, 'logs', 'keel-web.log') });
  try {
    return await serveWeb(flags, runtimeDir, log);
  } finally {
    log.close();
  }
}

async function serveWeb(flags: RunFlags, runtimeDir: string, log: ServiceLog): Promise<number> {
  const trust = flags.trustProjectConfig === true ? true : undefined;
  const workdir = resolve(flags.workdir ?? '.');
  const runtime = {
    ...(trust ? { trustProjectConfig: trust } : {}),
    ...(flags.queueOnly ? { queueOnly: true } : {}),
    maxRunning: flags.maxRunning,
  };
  const app = await createServer({
    runtime,
    workdir,
    allowedHosts: [...listFromEnv(process.env.RUNTIME_ALLOWED_HOSTS), ...flags.allowedHost],
    allowedOrigins: [...listFromEnv(process.env.RUNTIME_ALLOWED_ORIGINS), ...flags.allowedOrigin],
    serviceLog: log,
  });
  return serveUntilStopped({
    address: `${flags.host}:${flags.port}`,
    listen: async () => {
      await app.listen({ port: flags.port, host: flags.host });
      const address = app.server.address();
      return typeof address === 'object' && address
        ? `http://${flags.host}:${address.port}`
        : String(address);
    },
    close: () => app.close(),
    announce: (url) => `Keel web server listening on ${url}`,
    log,
    started: {
      runtime_dir: runtimeDir,
      workdir,
      log_file: log.file,
      queue_only: flags.queueOnly === true,
      max_running: flags.queueOnly ? 0 : flags.maxRunning,
    },
    notes: () => {
      const note = unconfinedCommandsNote(runtimeDir, workdir, trust);
      return [
        ...(note ? [`Note: ${note}\n`] : []),
        ...(flags.queueOnly ? ['Queue only: runs wait for a `keel worker` on the same store.\n'] : []),
      ];
    },
  });
}
