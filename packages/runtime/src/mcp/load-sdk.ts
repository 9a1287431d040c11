import { ConfigError } from '../errors/index.ts';
import type { McpConnection } from './connection.ts';

let loading: Promise<typeof McpConnection> | undefined;

/**
 * The MCP client, loaded on first use: `@modelcontextprotocol/sdk` is an optional peer of the runtime (the
 * `cli` and `all` installs bring it), so a runtime without MCP servers never loads it, and one that has
 * servers but not the package gets an error naming what to install.
 */
export function loadMcpConnection(): Promise<typeof McpConnection> {
  loading ??= import('./connection.ts').then(
    (module) => module.McpConnection,
    (error: unknown) => {
      loading = undefined;
      if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
      throw new ConfigError(
        'MCP servers need the MCP client package: npm install @modelcontextprotocol/sdk (the @keel/cli and @keel/all installs include it).',
        { package: '@modelcontextprotocol/sdk' },
      );
    },
  );
  return loading;
}
