import { createCommandPolicy } from '@keel/runtime/internal';

/**
 * What a third-party agent takes from the service's environment on top of a command's minimal set (PATH,
 * HOME, USER, locale, terminal, TMPDIR, XDG dirs, toolchain homes: the runtime's `defaultCommandEnv`): the
 * last XDG dir, and the proxy and certificate settings an agent needs to reach its model on a network that
 * has them. Nothing else of the service's environment (tokens, cloud credentials, database URLs,
 * WORKBENCH_AUTH_API_KEY) reaches it; what an agent needs beyond this, the runner config's `env` gives.
 */
export const agentEnvAllow: readonly string[] = [
  'XDG_STATE_HOME',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
];

// The user's own config dirs: an agent given a private HOME must not be led back into them.
const xdgDirs = ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME'];

export interface AgentEnvParts {
  /** What the runner sets itself: the private HOME, the model's key and address, the agent's switches. */
  set?: Record<string, string | undefined>;
  /** The runner config's `env` (settings, "Runner Configs"): the user's choice, it wins. */
  config: Record<string, string>;
  /** More names to take from `base` for this agent (Keel's own settings for `keel acp`). */
  keep?: readonly string[];
}

/**
 * The one environment a third-party agent's process gets (command-line and ACP runners alike): the minimal
 * set and `agentEnvAllow` from `base` (the service's environment), then what the runner sets, then the
 * runner config's `env`. When the runner gives the agent a private HOME, the inherited XDG dirs go too.
 *
 * @example
 * spawn(binary, args, { env: agentEnvironment(process.env, { set: { HOME: home }, config: config.env }) });
 */
export function agentEnvironment(base: NodeJS.ProcessEnv, parts: AgentEnvParts): NodeJS.ProcessEnv {
  const env = createCommandPolicy({ envAllow: [...agentEnvAllow, ...(parts.keep ?? [])] }).environment(base);
  if (parts.set?.HOME) for (const name of xdgDirs) delete env[name];
  for (const [name, value] of Object.entries(parts.set ?? {})) {
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...parts.config };
}
