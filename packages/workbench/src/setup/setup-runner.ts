import { mkdirSync } from 'node:fs';
import {
  CommandPolicy,
  createCodingTools,
  createPathGuard,
  createSandbox,
  type ProjectTrust,
  type Sandbox,
  toErrorObject,
} from '@keel/runtime';
import { loadConfig } from '@keel/runtime/internal';
import { setupCaches } from './setup-caches.ts';

/** Runs a repository's setup command at its root in a task's workspace. */
export interface SetupRunner {
  run(
    dir: string,
    command: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ exitCode: number | null; output: string }>;
}

/**
 * Setup through the runtime's `exec_command`, as the checks run, with three differences said out loud:
 * the sandbox has the host's network for this command only (an install needs the registry; the agent's
 * commands and the checks keep none), the package managers' caches are writable roots of this command only
 * (`setupCaches`), and the command policy's allow-list does not apply (the user chose or accepted this
 * exact command, a privileged change; the install scripts it runs are arbitrary code anyway): the block
 * lists still do. The rest is the agent's confinement: the read boundary (the home, WORKBENCH_HOME and the
 * runtime's directory hidden), the protected paths (`.git`, `.runtime/`) read-only, the minimal
 * environment, and no unconfined run where no sandbox backend exists (refused, unless the user's config
 * turned the sandbox off on purpose).
 */
export function runtimeSetupRunner(options: {
  runtimeDir: string;
  hiddenPaths: string[];
  /** The repositories' trust (reviewed config only): a workspace file an agent rewrote does not apply. */
  trustProjectConfig: Exclude<ProjectTrust, boolean>;
  /** WORKBENCH_HOME/caches: the JavaScript and Python managers' download caches. */
  cacheDir: string;
  /** The environment commands get their HOME (and CARGO_HOME, GOMODCACHE) from. */
  env?: NodeJS.ProcessEnv;
}): SetupRunner {
  const tools = createCodingTools();
  return {
    async run(dir, command, timeoutMs, signal = new AbortController().signal) {
      try {
        const config = loadConfig(options.runtimeDir, dir, options.trustProjectConfig);
        const caches = setupCaches(command, options.cacheDir, options.env ?? process.env);
        for (const root of caches.roots) mkdirSync(root, { recursive: true });
        const strictReadBoundary = config.security?.strict_read_boundary ?? true;
        const guard = await createPathGuard({
          workdir: dir,
          allowedRoots: [...(config.security?.allowed_roots ?? []), ...caches.roots],
          strictReadBoundary,
        });
        const sandbox = createSandbox(
          { ...config.sandbox, network_mode: 'host' },
          { strictReadBoundary, hiddenPaths: [options.runtimeDir, ...options.hiddenPaths] },
        );
        const policy = new CommandPolicy({
          allowedCommands: ['*'],
          blockedCommands: config.security?.blocked_commands,
          envAllow: config.security?.env_allow,
        });
        const text = await tools.execute(
          'exec_command',
          { command, timeout_ms: timeoutMs },
          {
            workdir: guard.workdir,
            guard,
            signal,
            commands: policy,
            sandbox: sandbox && withVariables(sandbox, caches.env),
            // No backend, and the user did not turn the sandbox off: refused, as the checks are.
            unconfinedCommands:
              sandbox === undefined && config.sandbox?.enabled !== false ? 'refuse' : undefined,
          },
        );
        const exit = /Exit code: (\d+)\s*$/.exec(text);
        return { exitCode: exit ? Number(exit[1]) : null, output: text };
      } catch (error) {
        // Refused by the block list or for want of a sandbox, timed out, stopped: the output says why.
        return { exitCode: null, output: toErrorObject(error).message };
      }
    },
  };
}

/** The sandbox, with the cache variables added to the command's minimal environment. */
function withVariables(sandbox: Sandbox, variables: Record<string, string>): Sandbox {
  return {
    name: sandbox.name,
    wrap: (command) => sandbox.wrap(command),
    environment: () => ({ ...sandbox.environment?.(), ...variables }),
  };
}
