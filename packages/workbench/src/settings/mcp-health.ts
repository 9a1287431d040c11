import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type McpServerSetting, maskedValue, secretEnvName } from './schema.ts';

/** What `POST /api/settings/mcp-servers/{name}/health` answers. */
export interface McpHealth {
  name: string;
  ok: boolean;
  tool_count: number;
  /** The tools' names, as the server listed them. */
  tools: string[];
  error?: { message: string };
}

const defaultTimeoutMs = 15_000;

/** The message with the server's secret env values masked, as the settings mask them: stderr may print one. */
function masked(message: string, server: McpServerSetting): string {
  let text = message;
  for (const [name, value] of Object.entries(server.env)) {
    if (secretEnvName.test(name) && value) text = text.replaceAll(value, maskedValue);
  }
  return text;
}

/**
 * Starts an MCP server as the runners would (stdio: its command, args and env), lists its tools and stops
 * it again. A server that does not start, answer or list its tools within `timeoutMs` is reported, with
 * the last lines it wrote to stderr; never thrown.
 */
export async function checkMcpServer(
  server: McpServerSetting,
  timeoutMs = defaultTimeoutMs,
): Promise<McpHealth> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: server.env,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const client = new Client({ name: 'keel-workbench-health', version: '1' });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`it did not answer within ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
  });
  try {
    const listed = await Promise.race([
      (async () => {
        await client.connect(transport);
        return client.listTools();
      })(),
      timeout,
    ]);
    const tools = listed.tools.map((tool) => tool.name);
    return { name: server.name, ok: true, tool_count: tools.length, tools };
  } catch (error) {
    const tail = stderr.trim().split('\n').slice(-5).join('\n');
    const message = `The MCP server '${server.name}' (${server.command}) could not list its tools: ${(error as Error).message}${tail ? `. Its stderr ends with:\n${tail}` : ''}`;
    return {
      name: server.name,
      ok: false,
      tool_count: 0,
      tools: [],
      error: { message: masked(message, server) },
    };
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
  }
}
