import type { McpCapabilities, McpServer } from '@agentclientprotocol/sdk';
import type { McpServerConfig } from '@keel/runtime';

/** The MCP transports `session/new` may name, as `initialize` advertises them. */
export const mcpCapabilities: McpCapabilities = { http: false, sse: false };

/** ACP's stdio MCP servers as Keel's (http and sse are not offered in the capabilities). */
export function mcpServerOf(server: McpServer): McpServerConfig[] {
  if (!('command' in server)) return [];
  const stdio = server;
  return [
    {
      name: stdio.name,
      transport: 'stdio',
      command: stdio.command,
      args: stdio.args,
      env: Object.fromEntries(stdio.env.map(({ name, value }) => [name, value])),
    },
  ];
}
