// The runtime's own secrets are never handed to a command the model runs.
const runtimeSecrets = new Set(['RUNTIME_MODEL_API_KEY', 'RUNTIME_AUTH_API_KEY']);
// Like Codex's default shell environment policy: names that look like credentials stay out too.
const secretLike = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL/i;

// Commands run without a terminal: tools that would page or prompt must not wait for a human.
const nonInteractive: NodeJS.ProcessEnv = { GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat' };

/**
 * The environment of a command run by `exec_command`: the runtime's, without its secrets and without
 * variables named like credentials (`*KEY*`, `*SECRET*`, `*TOKEN*`, `*PASSWORD*`, `*CREDENTIAL*`).
 */
export function commandEnvironment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || runtimeSecrets.has(name) || secretLike.test(name)) continue;
    env[name] = value;
  }
  return { ...env, ...nonInteractive };
}
