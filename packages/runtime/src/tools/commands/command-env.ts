// The runtime's own secrets are never handed to a program it starts, even when a configuration allows them.
const runtimeSecrets = new Set(['RUNTIME_MODEL_API_KEY', 'RUNTIME_AUTH_API_KEY']);
// Like Codex's default shell environment policy: names that look like credentials stay out too.
const secretLike = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL/i;

// Commands run without a terminal: tools that would page or prompt must not wait for a human.
const nonInteractive: NodeJS.ProcessEnv = { GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat' };

/**
 * The variables a command gets by default: where things are, who and where it runs, the locale and the
 * terminal, and the toolchains' home directories. None carries a secret, none loads code (`NODE_OPTIONS`,
 * `PYTHONPATH`, `PERL5LIB` stay out), none reaches a network service (`SSH_AUTH_SOCK`, `*_PROXY` stay out:
 * a proxy URL may carry a password). `*` ends a prefix.
 */
export const defaultCommandEnv: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TERM',
  'TZ',
  'TMPDIR',
  'COLUMNS',
  'LINES',
  'NO_COLOR',
  'FORCE_COLOR',
  'CI',
  'XDG_CACHE_HOME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'JAVA_HOME',
  'GOPATH',
  'GOROOT',
  'GOCACHE',
  'GOMODCACHE',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'PYENV_ROOT',
  'NVM_DIR',
];

/**
 * The environment of a command (`exec_command`, a gate's check command): only the variables of
 * `defaultCommandEnv` and of `allow` (config `security.env_allow`) are taken from `base`, the rest of the
 * runtime's environment (database URLs, tokens, cloud credentials) stays out. The runtime's own keys never
 * pass. Tools that would page or prompt are told not to.
 */
export function minimalCommandEnvironment(
  base: NodeJS.ProcessEnv = process.env,
  allow: readonly string[] = [],
): NodeJS.ProcessEnv {
  const patterns = [...defaultCommandEnv, ...allow].map((entry) => entry.trim());
  const allowed = (name: string) =>
    patterns.some((entry) => (entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : name === entry));
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || runtimeSecrets.has(name) || !allowed(name)) continue;
    env[name] = value;
  }
  return { ...env, ...nonInteractive };
}

/**
 * The environment of a server the runtime starts on the user's behalf (language servers, MCP servers):
 * the runtime's, without its secrets and without variables named like credentials (`*KEY*`, `*SECRET*`,
 * `*TOKEN*`, `*PASSWORD*`, `*CREDENTIAL*`). Commands the model runs get `minimalCommandEnvironment`.
 */
export function commandEnvironment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || runtimeSecrets.has(name) || secretLike.test(name)) continue;
    env[name] = value;
  }
  return { ...env, ...nonInteractive };
}
