import { ConfigError } from '../errors/index.ts';
import { BubblewrapSandbox } from './bubblewrap.ts';
import { ContainerSandbox, defaultContainerImage } from './container.ts';
import { findExecutableSync } from './find-executable.ts';
import { readBoundaryOf, socketFolders, userReadablePaths } from './read-boundary.ts';
import { RemoteSandbox } from './remote-sandbox.ts';
import type { Sandbox } from './sandbox.ts';
import { SeatbeltSandbox } from './seatbelt.ts';

/** Configuration `sandbox` (spec section 2). */
export interface SandboxSettings {
  /** Unset: on when this machine has an OS-level backend (bubblewrap, Seatbelt). False: off. */
  enabled?: boolean | undefined;
  /** `auto` (default), `bubblewrap`, `seatbelt`, `docker`, `podman` or `remote`. */
  backend?: string | undefined;
  /** `none` (or `disabled`): no network; `host` (or `enabled`): the machine's network. Default `none`. */
  network_mode?: string | undefined;
  /** The container backends' image (default `debian:bookworm-slim`). */
  image?: string | undefined;
  /** The remote backend's provider (docs/remote-sandbox.md). */
  remote?: RemoteSandboxSettings | undefined;
  /**
   * Paths (absolute, or `~/…`) commands may read although they sit in a folder the read boundary hides
   * (the home, WORKBENCH_HOME, RUNTIME_HOME), on top of the toolchains of `toolchainPaths`.
   */
  readable_paths?: string[] | undefined;
}

/** Configuration `sandbox.remote`: where the remote backend's provider is and how to reach it. */
export interface RemoteSandboxSettings {
  /** The provider's base URL (endpoints under `{url}/v1/`). */
  url?: string | undefined;
  /** The environment variable holding its bearer token (never the token itself). */
  token_env?: string | undefined;
  /** Seconds an unused sandbox is kept before the provider destroys it (default 1800). */
  idle_timeout_s?: number | undefined;
  /** Names never synced either way, at any depth, besides `.git`. */
  exclude?: string[] | undefined;
}

/** What the sandbox settings come to on this machine: shown by `keel config show` and `/config/status`. */
export interface SandboxStatus {
  active: boolean;
  /** The backend commands run in, or null when they run unconfined. */
  backend: string | null;
  network: 'none' | 'host';
  /** Why, in a sentence a user can act on. */
  reason: string;
}

export interface SandboxEnvironment {
  platform?: NodeJS.Platform;
  /** Where backends' programs are looked for (default this process's PATH). */
  searchPath?: string;
  /**
   * Where the remote backend's token variable and the read boundary's HOME, WORKBENCH_HOME and RUNTIME_HOME
   * are read (default this process's environment, which commands get their HOME from).
   */
  env?: NodeJS.ProcessEnv;
  /**
   * Config `security.strict_read_boundary` (default true): commands cannot read the user's home,
   * WORKBENCH_HOME, RUNTIME_HOME or `hiddenPaths` (bubblewrap and Seatbelt; containers see only the roots).
   */
  strictReadBoundary?: boolean;
  /** More folders to hide with the read boundary: the runtime's directory. */
  hiddenPaths?: readonly (string | undefined)[];
  /** Where the remote backend remembers each workdir's sandbox (default a private folder in the temp dir). */
  remoteStateDir?: string;
}

const noNetwork = new Set(['none', 'disabled', 'off']);
const hostNetwork = new Set(['host', 'enabled', 'on']);
const backends: Record<string, 'bubblewrap' | 'seatbelt' | 'docker' | 'podman' | 'remote' | 'auto'> = {
  auto: 'auto',
  bubblewrap: 'bubblewrap',
  bwrap: 'bubblewrap',
  seatbelt: 'seatbelt',
  'sandbox-exec': 'seatbelt',
  docker: 'docker',
  podman: 'podman',
  remote: 'remote',
};
const turnOff = 'Set sandbox.enabled to false to run commands unconfined.';
// What the runtime does when no backend is found and the sandbox was not turned off (unconfined-commands.ts).
const withoutBackend =
  'a command that does more than read inside the working directory waits for your approval (and is ' +
  'refused where nobody can approve).';

/** The sandbox commands run in, or undefined when they run unconfined (see sandboxStatus for why). */
export function createSandbox(
  settings: SandboxSettings | undefined,
  environment: SandboxEnvironment = {},
): Sandbox | undefined {
  return resolveSandbox(settings, environment).sandbox();
}

/**
 * Which sandbox `settings` give on this machine, and why, for showing (`keel config show`,
 * `/config/status`): a bad setting is reported in `reason` rather than thrown.
 */
export function sandboxStatus(
  settings: SandboxSettings | undefined,
  environment: SandboxEnvironment = {},
): SandboxStatus {
  try {
    return resolveSandbox(settings, environment).status;
  } catch (error) {
    const network = hostNetwork.has((settings?.network_mode ?? '').toLowerCase()) ? 'host' : 'none';
    return { active: false, backend: null, network, reason: (error as Error).message };
  }
}

/**
 * The status, and how to build the sandbox: only createSandbox builds it. A run's start asks for both (the
 * surface's note, then the run's tools), and building the OS sandbox walks the file system for its read
 * boundary (issue #44).
 */
interface Resolved {
  sandbox: () => Sandbox | undefined;
  status: SandboxStatus;
}

function resolveSandbox(settings: SandboxSettings | undefined, environment: SandboxEnvironment): Resolved {
  const mode = (settings?.network_mode ?? 'none').toLowerCase();
  if (!noNetwork.has(mode) && !hostNetwork.has(mode)) {
    throw new ConfigError(`Unknown sandbox.network_mode "${settings?.network_mode}": use "none" or "host".`, {
      option: 'sandbox.network_mode',
    });
  }
  const network = hostNetwork.has(mode);
  const networkName: SandboxStatus['network'] = network ? 'host' : 'none';
  const backend = backends[(settings?.backend ?? 'auto').toLowerCase()];
  if (backend === undefined) {
    throw new ConfigError(
      `Unsupported sandbox.backend "${settings?.backend}": use auto, bubblewrap, seatbelt, docker, podman or remote.`,
      { option: 'sandbox.backend' },
    );
  }
  const off = (reason: string): Resolved => ({
    sandbox: () => undefined,
    status: { active: false, backend: null, network: networkName, reason },
  });
  if (settings?.enabled === false) return off('sandbox.enabled is false: commands run unconfined.');

  const platform = environment.platform ?? process.platform;
  const searchPath = environment.searchPath ?? process.env.PATH ?? '';
  const on = (backend: string, sandbox: () => Sandbox, reason: string): Resolved => ({
    sandbox,
    status: { active: true, backend, network: networkName, reason },
  });
  const writes = `the workdir and allowed_roots writable, ${network ? 'the host network' : 'no network'}`;

  if (backend === 'remote') return remote(settings?.remote, network, environment, on);
  if (backend === 'docker' || backend === 'podman') {
    const image = settings?.image ?? defaultContainerImage;
    const sandbox = new ContainerSandbox({ engine: backend, image, network, searchPath });
    return on(
      sandbox.name,
      () => sandbox,
      `Commands run in ${backend} containers (${image}): ${writes}. ${turnOff}`,
    );
  }
  const osBackend = backend === 'auto' ? (platform === 'darwin' ? 'seatbelt' : 'bubblewrap') : backend;
  const needs = osBackend === 'seatbelt' ? 'darwin' : 'linux';
  if (platform !== needs) {
    const message = `sandbox.backend ${osBackend} needs ${needs === 'darwin' ? 'macOS' : 'Linux'}, not ${platform}.`;
    if (backend !== 'auto') throw new ConfigError(message, { option: 'sandbox.backend' });
    if (settings?.enabled === true) {
      throw new ConfigError(`sandbox.enabled is true, but no sandbox backend runs on ${platform}.`, {
        option: 'sandbox.backend',
      });
    }
    return off(`No sandbox backend runs on ${platform}: ${withoutBackend} ${turnOff}`);
  }
  const program = osBackend === 'seatbelt' ? 'sandbox-exec' : 'bwrap';
  const found = findExecutableSync(program, osBackend === 'seatbelt' ? `${searchPath}:/usr/bin` : searchPath);
  // Asked for explicitly: keep it, so each command explains what to install instead of running unconfined.
  const asked = settings?.enabled === true || backend !== 'auto';
  if (found === undefined && !asked) {
    const install =
      program === 'bwrap' ? ' Install bubblewrap (apt-get install bubblewrap) to confine commands.' : '';
    return off(`No sandbox: ${program} is not installed, so ${withoutBackend}${install} ${turnOff}`);
  }
  const build = (): Sandbox => {
    const readBoundary =
      environment.strictReadBoundary === false
        ? undefined
        : readBoundaryOf({
            env: environment.env ?? process.env,
            hiddenPaths: environment.hiddenPaths,
            readablePaths: settings?.readable_paths,
          });
    return osBackend === 'seatbelt'
      ? new SeatbeltSandbox({ network, searchPath, readBoundary })
      : new BubblewrapSandbox({
          network,
          searchPath,
          readBoundary,
          socketFolders: socketFolders(environment.env ?? process.env),
          readablePaths: userReadablePaths(settings?.readable_paths, (environment.env ?? process.env).HOME),
        });
  };
  const missing = found === undefined ? ` (${program} is not installed: commands will be refused)` : '';
  // The OS sandboxes' names are their backends' (BubblewrapSandbox.name, SeatbeltSandbox.name).
  return on(osBackend, build, `Commands run in the ${osBackend} sandbox${missing}: ${writes}. ${turnOff}`);
}

/** The remote backend: only when named (`auto` never picks it: it needs a provider). */
function remote(
  settings: RemoteSandboxSettings | undefined,
  network: boolean,
  environment: SandboxEnvironment,
  on: (backend: string, sandbox: () => Sandbox, reason: string) => Resolved,
): Resolved {
  const url = settings?.url;
  if (!url || !/^https?:\/\/[^/]/.test(url)) {
    throw new ConfigError('sandbox.backend "remote" needs sandbox.remote.url, the provider\'s http(s) URL.', {
      option: 'sandbox.remote.url',
    });
  }
  const env = environment.env ?? process.env;
  const sandbox = new RemoteSandbox({
    url,
    tokenEnv: settings?.token_env,
    network,
    idleTimeoutS: settings?.idle_timeout_s,
    exclude: settings?.exclude,
    env,
    stateDir: environment.remoteStateDir,
  });
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  const token = settings?.token_env;
  const missing = token && !env[token] ? ` (${token} is not set: commands will be refused)` : '';
  return on(
    sandbox.name,
    () => sandbox,
    `Commands run in the remote sandbox at ${shown.href}${missing}: the workdir is copied there before each ` +
      `command and its changes copied back, ${network ? 'the host network' : 'no network'}. ${turnOff}`,
  );
}
