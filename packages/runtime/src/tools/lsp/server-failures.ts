import { ToolError } from '../../errors/index.ts';
import type { LspServerDefinition } from './server-definitions.ts';

/** How messages name a server: `The Python language server (pyright)`. */
export function serverTitle(definition: LspServerDefinition): string {
  const language = definition.language === 'typescript' ? 'TypeScript/JavaScript' : 'Python';
  return `The ${language} language server (${definition.name})`;
}

/** The server's last error and warning messages and the end of its stderr, as a sentence to append. */
export function lastWords(messages: readonly string[], stderr: string): string {
  const parts = [...messages];
  const tail = stderr.trim();
  if (tail) parts.push(tail.split('\n').slice(-8).join('\n'));
  return parts.length > 0 ? ` Its last messages: ${parts.join(' | ')}` : '';
}

/** The process could not be spawned: the command is missing or not executable. */
export function spawnFailure(definition: LspServerDefinition, error: NodeJS.ErrnoException): ToolError {
  const { command, language } = definition;
  const reason =
    error.code === 'ENOENT'
      ? `the command '${command}' was not found`
      : error.code === 'EACCES'
        ? `the command '${command}' is not executable`
        : error.message;
  return new ToolError(
    `${serverTitle(definition)} could not start: ${reason}. Install it, or set lsp.servers.${language}.command ` +
      'in the configuration to a server that speaks LSP on stdio.',
    { server: definition.name, command, code: error.code },
    { cause: error },
  );
}

/** The process ended (on its own, killed, or crashed) while someone was waiting on it. */
export function exitFailure(
  definition: LspServerDefinition,
  code: number | null,
  signal: NodeJS.Signals | null,
  words: string,
): ToolError {
  const how = signal !== null ? `was stopped by ${signal}` : `exited with code ${code}`;
  return new ToolError(
    `${serverTitle(definition)} ${how}.${words} The next language-server query starts it again.`,
    { server: definition.name, exit_code: code, signal },
  );
}

/** The server refused `initialize` (typescript-language-server without a usable TypeScript, say). */
export function startFailure(definition: LspServerDefinition, message: string, words: string): ToolError {
  return new ToolError(`${serverTitle(definition)} could not start: ${message}${words}`, {
    server: definition.name,
  });
}

/** The server answered a query with an error. */
export function requestFailure(
  definition: LspServerDefinition,
  method: string,
  error: { message: string; code: number },
): ToolError {
  return new ToolError(`${serverTitle(definition)} failed to answer ${method}: ${error.message}`, {
    server: definition.name,
    method,
    code: error.code,
  });
}
