import type { McpCapabilities, McpServer } from '@agentclientprotocol/sdk';
import type { McpServerConfig } from '@keel/runtime';

/** The MCP transports `session/new` may name besides stdio, as `initialize` advertises them. */
export const mcpCapabilities: McpCapabilities = { http: true, sse: true };

/**
 * An editor's MCP server as Keel's. Whatever cannot work (a bad URL, a transport Keel does not speak) is
 * still passed on: the runtime tells the model what is wrong when it asks for the server, instead of the
 * server silently missing.
 */
export function mcpServerOf(server: McpServer): McpServerConfig[] {
  if ('command' in server) {
    return [
      {
        name: server.name,
        transport: 'stdio',
        command: server.command,
        args: server.args ?? [],
        env: pairsToRecord(server.env),
      },
    ];
  }
  // Headers often carry a token: they go to the server on every request and nowhere else.
  return [
    { name: server.name, transport: server.type, url: server.url, headers: pairsToRecord(server.headers) },
  ];
}

/** ACP's `[{name, value}]` lists (which clients may send as null) as a record; a repeated name keeps the last. */
function pairsToRecord(pairs: ReadonlyArray<{ name: string; value: string }> | null | undefined) {
  return Object.fromEntries((pairs ?? []).map(({ name, value }) => [name, value]));
}
