import { loadConfig, type ProjectTrust } from '../config/index.ts';
import { sandboxStatus } from '../sandbox/index.ts';

/**
 * The note a surface shows once at start when no sandbox backend confines commands in `workdir` although
 * the configuration did not turn the sandbox off on purpose (then commands that do more than read wait for
 * approval, or are refused where nobody can approve); undefined when a sandbox is on, the user chose
 * "unconfined", or the configuration cannot be read (the run itself reports that).
 */
export function unconfinedCommandsNote(
  runtimeDir: string,
  workdir: string,
  trust?: ProjectTrust,
): string | undefined {
  let sandbox: ReturnType<typeof loadConfig>['sandbox'];
  try {
    sandbox = loadConfig(runtimeDir, workdir, trust).sandbox;
  } catch {
    return undefined;
  }
  const status = sandboxStatus(sandbox);
  return status.active || sandbox?.enabled === false ? undefined : status.reason;
}
