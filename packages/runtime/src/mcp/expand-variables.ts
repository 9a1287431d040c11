// The runtime's own keys are never handed to an MCP server, not even when a config file asks for them.
const runtimeSecrets = new Set(['RUNTIME_MODEL_API_KEY', 'RUNTIME_AUTH_API_KEY']);

const reference = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${NAME}` and `${NAME:-fallback}` in a config value with the environment's value, so that a
 * server's token can live in the environment instead of a config file. Throws an Error whose message
 * names the field (`field`) and the variable that is missing or refused; `$` not followed by `{NAME}` is left as written.
 */
export function expandVariables(text: string, env: NodeJS.ProcessEnv, field: string): string {
  return text.replace(reference, (_whole, name: string, fallback: string | undefined) => {
    if (runtimeSecrets.has(name)) {
      throw new Error(
        `${field} refers to \${${name}}, but the runtime's own keys are never passed to MCP servers`,
      );
    }
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    throw new Error(`${field} refers to \${${name}}, which is not set in the environment`);
  });
}
