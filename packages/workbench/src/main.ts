import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unconfinedCommandsNote } from '@keel/runtime';
import { readEnv } from '@keel/runtime/internal';
import {
  createServiceLog,
  runServiceProgram,
  type ServeFlags,
  type ServiceLog,
  serveUntilStopped,
} from '@keel/service';
import { createWorkbench } from './app.ts';
import { readConfig } from './config.ts';
import { version } from './version.ts';

/**
 * `keel-workbench run [--port 8000] [--host 127.0.0.1] [--log-level info]`: serves until SIGINT or SIGTERM,
 * logging to stderr and `{WORKBENCH_HOME}/logs/workbench.log`. Returns the exit code.
 */
export function main(argv: string[]): Promise<number> {
  return runServiceProgram(argv, {
    name: 'keel-workbench',
    description: 'Keel workbench: a requirement through five stages to a merge request',
    runDescription: 'Start the workbench service (data under WORKBENCH_HOME, default ~/.workbench)',
    keyVariable: 'WORKBENCH_AUTH_API_KEY',
    logLevelVariable: 'WORKBENCH_LOG_LEVEL',
    version,
    serve,
  });
}

async function serve(flags: ServeFlags): Promise<number> {
  // A start that fails (the port is taken, say) leaves no data directory it created behind.
  const { home } = readConfig(process.env);
  const fresh = !existsSync(home);
  const log = createServiceLog({ level: flags.logLevel, file: join(home, 'logs', 'workbench.log') });
  const code = await serveWorkbench(flags, log).catch((error: unknown) => {
    process.stderr.write(`Error: the workbench could not start: ${(error as Error).message}\n`);
    return 1;
  });
  log.close();
  if (code !== 0 && fresh) rmSync(home, { recursive: true, force: true });
  return code;
}

async function serveWorkbench(flags: ServeFlags, log: ServiceLog): Promise<number> {
  const workbench = await createWorkbench({
    allowedHosts: flags.allowedHost,
    insecureNoAuth: flags.insecureNoAuth === true,
    serviceLog: log,
  });
  return serveUntilStopped({
    address: `${flags.host}:${flags.port}`,
    listen: () => workbench.listen(flags.port, flags.host),
    close: () => workbench.close(),
    announce: (url) => `Keel workbench listening on ${url} (API docs: ${url}/docs)`,
    log,
    started: { home: workbench.services.config.home, log_file: log.file },
    notes: () => {
      // Keel's runs here never trust a project file by default, so the user's global config decides.
      const note = unconfinedCommandsNote(readEnv(process.env).home, tmpdir(), false);
      return [
        ...(workbench.warning ? [`\n${workbench.warning}\n\n`] : []),
        ...(note ? [`Note (the Keel runner): ${note}\n`] : []),
      ];
    },
  });
}
