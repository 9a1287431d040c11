import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The workbench's data directory, as the workbench reads it (`readConfig` in `@keel/workbench`; a test
 * holds the two together): loading the workbench's package for one line would load its whole server.
 */
export function workbenchHome(env: NodeJS.ProcessEnv): string {
  return resolve(env.WORKBENCH_HOME || join(homedir(), '.workbench'));
}

/** What the shell keeps in the data directory: WebKit's storage, its socket, the port it used last. */
export function desktopDir(home: string): string {
  return join(home, 'desktop');
}
