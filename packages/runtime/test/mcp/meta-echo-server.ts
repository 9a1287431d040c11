import { createRequire } from 'node:module';

// A real MCP server (the official SDK's McpServer over stdio) whose tool `whoami` answers the `_meta` its
// call came with, so a test sees what Keel sends. With a log file, each call also appends its `_meta` there
// as a JSON line: the calls of every server process (of every worker), in order.

const require = createRequire(import.meta.url);
const mcpServer = require.resolve('@modelcontextprotocol/sdk/server/mcp.js');
const stdioTransport = require.resolve('@modelcontextprotocol/sdk/server/stdio.js');

/** The server's source, for `node -e` (see nodeScriptServer). */
export function metaEchoScript(log?: string): string {
  return `
const fs = require('node:fs');
const { McpServer } = require(${JSON.stringify(mcpServer)});
const { StdioServerTransport } = require(${JSON.stringify(stdioTransport)});
const log = ${JSON.stringify(log ?? null)};
const server = new McpServer({ name: 'meta-echo', version: '1.0.0' });
server.registerTool('whoami', { description: 'Answers the _meta of its call' }, async (extra) => {
  const meta = extra._meta ?? null;
  if (log) fs.appendFileSync(log, JSON.stringify(meta) + '\\n');
  return { content: [{ type: 'text', text: JSON.stringify(meta) }] };
});
server.connect(new StdioServerTransport());
`;
}
