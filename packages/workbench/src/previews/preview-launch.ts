import { existsSync } from 'node:fs';
import {
  CommandPolicy,
  createPathGuard,
  createSandbox,
  type ProjectTrust,
  toErrorObject,
} from '@keel/runtime';
import { loadConfig } from '@keel/runtime/internal';
import { activatedVenv } from '../checks/index.ts';
import { WorkbenchError } from '../errors.ts';

// Models' and repositories' commands run with bash where there is one, as exec_command's do.
const shell = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

/** How to start one preview: the argv (wrapped by the sandbox when there is one) and its environment. */
export interface PreviewLaunch {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** False when the user's config turned the sandbox off on purpose: the command runs unconfined. */
  sandboxed: boolean;
}

/** What every preview's launch shares: the runtime's directory, what to hide, whose config to trust. */
export interface PreviewLaunchOptions {
  runtimeDir: string;
  hiddenPaths: string[];
  /** The repositories' trust (reviewed config only): a workspace file an agent rewrote does not apply. */
  trustProjectConfig: Exclude<ProjectTrust, boolean>;
  /** The environment commands get their minimal set (PATH, HOME, …) from. */
  env: NodeJS.ProcessEnv;
}

/**
 * A preview's launch, confined as the agent's commands are, with one difference said out loud: the host's
 * network (a server in a network namespace of its own cannot be reached from the user's browser). The rest
 * is the agent's confinement: the workspace the only writable folder, the read boundary (the home,
 * WORKBENCH_HOME and the runtime's directory hidden), `.git` and `.runtime/` read-only, the minimal
 * environment plus `PORT` and `HOST`, the block lists, its own process tree that dies with the service
 * (bubblewrap's --die-with-parent), and no unconfined run where there is no sandbox backend unless the
 * user's config turned the sandbox off on purpose. The command policy's allow-list does not apply: the
 * command is the project's setting (a privileged change), run when the user asks.
 */
export async function previewLaunch(
  options: PreviewLaunchOptions,
  dir: string,
  command: string,
  port: number,
): Promise<PreviewLaunch> {
  try {
    const config = loadConfig(options.runtimeDir, dir, options.trustProjectConfig);
    const strictReadBoundary = config.security?.strict_read_boundary ?? true;
    const guard = await createPathGuard({
      workdir: dir,
      allowedRoots: config.security?.allowed_roots ?? [],
      strictReadBoundary,
    });
    const sandbox = createSandbox(
      { ...config.sandbox, network_mode: 'host' },
      { strictReadBoundary, hiddenPaths: [options.runtimeDir, ...options.hiddenPaths], env: options.env },
    );
    const policy = new CommandPolicy({
      allowedCommands: ['*'],
      blockedCommands: config.security?.blocked_commands,
      envAllow: config.security?.env_allow,
    });
    policy.assertAllowed(command);
    if (sandbox === undefined && config.sandbox?.enabled !== false) {
      throw new WorkbenchError(
        'PERMISSION_DENIED',
        `The preview was not started: \`${command}\` runs the repository's code, and no sandbox backend ` +
          'confines commands on this machine. Install bubblewrap (apt-get install bubblewrap), or set ' +
          'sandbox.enabled to false in the runtime config to run previews unconfined on purpose.',
        { reason: 'no_sandbox' },
      );
    }
    const argv = [shell, '-c', command];
    return {
      argv: sandbox ? await sandbox.wrap({ argv, cwd: guard.workdir, writableRoots: guard.roots }) : argv,
      cwd: guard.workdir,
      env: {
        ...policy.environment(options.env),
        ...(await activatedVenv(guard.workdir, policy.environment(options.env).PATH)),
        ...sandbox?.environment?.(),
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      sandboxed: sandbox !== undefined,
    };
  } catch (error) {
    if (WorkbenchError.is(error)) throw error;
    // Refused by a block list, no bwrap although the sandbox is asked for, a bad config: said as it is.
    const failure = toErrorObject(error);
    throw new WorkbenchError(
      'PERMISSION_DENIED',
      `The preview was not started: ${failure.message}`,
      failure.details ? { ...failure.details } : undefined,
    );
  }
}
