import { ConfigError } from '../errors/index.ts';
import { BubblewrapSandbox } from './bubblewrap.ts';
import type { Sandbox } from './sandbox.ts';

/** Configuration `sandbox` (spec section 2). */
export interface SandboxSettings {
  enabled?: boolean | undefined;
  /** `auto` or `bubblewrap` (Linux). Default `auto`. */
  backend?: string | undefined;
  /** `none` (or `disabled`): no network; `host` (or `enabled`): the machine's network. Default `none`. */
  network_mode?: string | undefined;
}

const noNetwork = new Set(['none', 'disabled', 'off']);
const hostNetwork = new Set(['host', 'enabled', 'on']);

/**
 * The sandbox commands run in, or undefined when `sandbox.enabled` is not true. Unknown settings are a
 * ConfigError naming the option; a backend missing on this machine is reported when a command runs.
 */
export function createSandbox(
  settings: SandboxSettings | undefined,
  options: { platform?: NodeJS.Platform; searchPath?: string } = {},
): Sandbox | undefined {
  if (settings?.enabled !== true) return undefined;
  const mode = (settings.network_mode ?? 'none').toLowerCase();
  if (!noNetwork.has(mode) && !hostNetwork.has(mode)) {
    throw new ConfigError(`Unknown sandbox.network_mode "${settings.network_mode}": use "none" or "host".`, {
      option: 'sandbox.network_mode',
    });
  }
  const backend = (settings.backend ?? 'auto').toLowerCase();
  if (backend !== 'auto' && backend !== 'bubblewrap' && backend !== 'bwrap') {
    throw new ConfigError(`Unsupported sandbox.backend "${settings.backend}": use "auto" or "bubblewrap".`, {
      option: 'sandbox.backend',
    });
  }
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') {
    throw new ConfigError(
      `sandbox.enabled is true, but the only sandbox backend so far (bubblewrap) needs Linux, not ${platform}.`,
      { option: 'sandbox.backend' },
    );
  }
  return new BubblewrapSandbox({
    network: hostNetwork.has(mode),
    ...(options.searchPath !== undefined ? { searchPath: options.searchPath } : {}),
  });
}
