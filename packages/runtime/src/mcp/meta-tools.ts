import { z } from 'zod';
import { CancelledError, InvalidParamsError, KeelError, ToolError } from '../errors/index.ts';
import { defineTool, type Tool, ToolRegistry } from '../tools/index.ts';
import { callMeta } from './call-meta.ts';
import type { McpClientPool } from './connection-pool.ts';
import { shortReason } from './reason.ts';
import { resultText } from './result-text.ts';
import { isUnusable, type McpServerDefinition, type McpServerEntry } from './server-definition.ts';
import { describeServerTools } from './tool-listing.ts';

const listSchema = z.object({
  server: z
    .string()
    .optional()
    .describe(
      'Only this server, with full descriptions of its tools and their arguments (default: every server).',
    ),
});

const callSchema = z.object({
  server: z.string().describe('The MCP server, as mcp_list_tools names it.'),
  tool: z.string().describe('The tool on that server, as mcp_list_tools names it.'),
  arguments: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The tool\'s arguments as a JSON object, e.g. {"message": "hi"} (default {}).'),
});

/**
 * The agent-only meta tools `mcp_list_tools` and `mcp_call` over the configured servers; none when no
 * server is configured. Servers connect on first use through `pool`, so a run that never touches MCP
 * starts no server.
 */
export function createMcpTools(servers: readonly McpServerEntry[], pool: McpClientPool): Tool[] {
  if (servers.length === 0) return [];
  const names = servers.map((server) => `${server.name} (${server.transport})`).join(', ');

  /** The usable definition named `name`, or an error the model can act on. */
  const definitionOf = (name: string): McpServerDefinition => {
    const entry = servers.find((server) => server.name === name);
    if (entry === undefined) {
      throw new InvalidParamsError(
        `There is no MCP server named '${name}'. Configured servers: ${servers.map((s) => s.name).join(', ')}.`,
        { server: name, available: servers.map((s) => s.name) },
      );
    }
    if (isUnusable(entry)) throw new ToolError(entry.problem, { server: name });
    return entry;
  };

  const listTool = defineTool({
    name: 'mcp_list_tools',
    traits: { kind: 'other', readOnly: false },
    description:
      'Lists the tools of the MCP servers configured for this project, with a signature (arguments, ' +
      'their types, `?` when optional) and a description for each. Call it before mcp_call. Give ' +
      `\`server\` for one server in full detail. Servers: ${names}.`,
    schema: listSchema,
    async execute(ctx, args) {
      if (args.server !== undefined) {
        const definition = definitionOf(args.server);
        const connection = await pool.connection(definition, ctx.signal);
        const tools = await connection.listTools(ctx.signal);
        return describeServerTools(headerOf(definition), tools, 'full');
      }
      const sections = await Promise.all(
        servers.map(async (entry) => {
          if (isUnusable(entry))
            return `Server ${entry.name} (${entry.transport}): unavailable. ${entry.problem}`;
          try {
            const connection = await pool.connection(entry, ctx.signal);
            return describeServerTools(headerOf(entry), await connection.listTools(ctx.signal), 'brief');
          } catch (error) {
            // One broken server must not hide the tools of the others.
            if (ctx.signal.aborted) throw error;
            const reason = KeelError.is(error) ? error.message : shortReason(error);
            return `Server ${entry.name} (${entry.transport}): unavailable. ${reason}`;
          }
        }),
      );
      return `${sections.join('\n\n')}\n\nCall a tool with mcp_call(server, tool, arguments).`;
    },
  });

  const callTool = defineTool({
    name: 'mcp_call',
    traits: { kind: 'other', readOnly: false },
    description:
      'Calls a tool of an MCP server and returns its result as text (images and other content are ' +
      'summarised). List the tools and their arguments with mcp_list_tools first. ' +
      `Servers: ${names}.`,
    schema: callSchema,
    async execute(ctx, args) {
      const definition = definitionOf(args.server);
      const connection = await pool.connection(definition, ctx.signal);
      const result = await connection.callTool(args.tool, args.arguments ?? {}, ctx.signal, callMeta(ctx));
      if (ctx.signal.aborted) throw new CancelledError();
      const text = resultText(result);
      if (result.isError === true) {
        throw new ToolError(`MCP tool '${args.tool}' of server '${args.server}' returned an error: ${text}`, {
          server: args.server,
          tool: args.tool,
        });
      }
      return text;
    },
  });

  return [listTool, callTool];
}

/**
 * `tools` plus mcp_list_tools and mcp_call when a server is configured; `tools` itself when none is. A tool
 * of the same name already in `tools` (an embedder's own) is kept.
 */
export function withMcpTools(
  tools: ToolRegistry,
  servers: readonly McpServerEntry[],
  pool: McpClientPool,
): ToolRegistry {
  if (servers.length === 0) return tools;
  const added = createMcpTools(servers, pool).filter((tool) => !tools.has(tool.name));
  return new ToolRegistry([...tools.list(), ...added]);
}

function headerOf(definition: McpServerDefinition): string {
  return `Server ${definition.name} (${definition.transport})`;
}
