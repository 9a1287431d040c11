/**
 * The environment every git command runs with: the caller's, plus no interactive prompts (a prompt would hang
 * a service with no terminal) and untranslated messages (we match a few of git's stderr texts). LANGUAGE
 * rather than LC_ALL, so messages of the tools git starts keep the user's locale.
 *
 * A repository is hostile (a model writes in it, or it came from someone else), so nothing here lets it pick a program:
 * no system config, no pager or editor, no askpass program (an empty GIT_ASKPASS also hides `core.askPass`),
 * no lazy fetch from a planted promisor remote (git >= 2.45), and only the transports in `allowProtocols`
 * (GIT_ALLOW_PROTOCOL overrides every `protocol.*.allow` in any config). The `-c` overrides that neutralise the
 * repository's own config travel as GIT_CONFIG_COUNT entries (see `hardened-config.ts`).
 */
export function gitEnv(
  extra: Record<string, string> = {},
  options: { allowProtocols?: readonly string[]; config?: readonly (readonly [string, string])[] } = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GCM_INTERACTIVE: 'never',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'true',
    GIT_SEQUENCE_EDITOR: 'true',
    GIT_NO_LAZY_FETCH: '1',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_ALLOW_PROTOCOL: (options.allowProtocols ?? ['file']).join(':'),
    LANGUAGE: 'en',
  };
  // Command-scope config, read after every file (so it wins), and passed on to the git processes git starts.
  const config = options.config ?? [];
  const start = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10) || 0;
  config.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${start + index}`] = key;
    env[`GIT_CONFIG_VALUE_${start + index}`] = value;
  });
  env.GIT_CONFIG_COUNT = String(start + config.length);
  return { ...env, ...extra };
}
