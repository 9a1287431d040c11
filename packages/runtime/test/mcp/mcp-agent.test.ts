import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startHarness } from '../harness.ts';
import { everythingStdio, expectNoProcessWith, processesWith } from './reference-servers.ts';

function toolNamesOffered(
  request: { tools?: Array<{ function?: { name?: string } }> } | undefined,
): string[] {
  return (request?.tools ?? []).map((tool) => tool.function?.name ?? '');
}

describe('an agent run with MCP servers configured', () => {
  test('the model lists and calls MCP tools, sees the results, and the calls are audited', async () => {
    const everything = everythingStdio();
    await using h = await startHarness([
      { toolCalls: [{ name: 'mcp_list_tools', arguments: {} }] },
      {
        toolCalls: [
          {
            name: 'mcp_call',
            arguments: { server: 'everything', tool: 'echo', arguments: { message: 'hello from keel' } },
          },
        ],
      },
      { toolCalls: [{ name: 'mcp_call', arguments: { server: 'ghost', tool: 'anything' } }] },
      { text: 'The server echoed "hello from keel"; the ghost server is not installed.' },
    ]);
    await writeFile(
      join(h.runtimeDir, 'config.json'),
      JSON.stringify({
        mcp: {
          servers: [
            everything.config,
            { name: 'ghost', transport: 'stdio', command: 'keel-no-such-mcp-server' },
          ],
        },
      }),
    );

    const { events, result, error } = await h.collect({ prompt: 'Echo "hello from keel" through MCP' });
    expect(error).toBeUndefined();
    expect(result?.output).toBe('The server echoed "hello from keel"; the ghost server is not installed.');

    expect(toolNamesOffered(h.model.chatRequests[0])).toEqual(
      expect.arrayContaining(['mcp_list_tools', 'mcp_call']),
    );
    const results = events.flatMap((event) => (event.type === 'tool_result' ? [event] : []));
    expect(results.map((event) => event.tool_name)).toEqual(['mcp_list_tools', 'mcp_call', 'mcp_call']);
    expect(results[0]?.result).toContain('- echo(message: string): Echoes back the input string');
    expect(results[1]?.result).toBe('Echo: hello from keel');
    expect(results[2]?.result).toContain(
      "Error: MCP server 'ghost' could not start: the command 'keel-no-such-mcp-server' was not found",
    );
    // The model's next request carries the tool's answer.
    expect(JSON.stringify(h.model.chatRequests[2]?.messages)).toContain('Echo: hello from keel');

    const { entries } = await h.runtime.audit.list({ event: 'tool_call' });
    const mcpEntries = entries.filter((entry) => entry.tool_name?.startsWith('mcp_')).reverse();
    expect(mcpEntries).toMatchObject([
      { tool_name: 'mcp_list_tools', success: true },
      {
        tool_name: 'mcp_call',
        args_summary: '{"server":"everything","tool":"echo","arguments":{"message":"hello from keel"}}',
        result_summary: 'Echo: hello from keel',
        success: true,
      },
      {
        tool_name: 'mcp_call',
        success: false,
        result_summary: expect.stringContaining("MCP server 'ghost'"),
      },
    ]);

    // The server outlives the run (later runs reuse it) but not the runtime.
    expect(processesWith(everything.marker)).toHaveLength(1);
    await h.runtime.close();
    await expectNoProcessWith(everything.marker);
  });

  test('without servers the model is not offered the MCP tools', async () => {
    await using h = await startHarness([{ text: 'Nothing to do.' }]);
    const { error } = await h.collect({ prompt: 'Say hi' });
    expect(error).toBeUndefined();
    const offered = toolNamesOffered(h.model.chatRequests[0]);
    expect(offered).toContain('read_file');
    expect(offered.filter((name) => name.startsWith('mcp'))).toEqual([]);
  });
});
