import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createMcpTools, McpClientPool, resolveMcpServers } from '../../src/mcp/index.ts';
import { ToolRegistry } from '../../src/tools/index.ts';
import { startHarness } from '../harness.ts';
import { contextFor, tempDir } from '../tools/helpers.ts';
import { metaEchoScript } from './meta-echo-server.ts';
import { nodeScriptServer } from './reference-servers.ts';

// A tool call tells an MCP server which run and which execution of it it belongs to (MCP's `_meta` on
// tools/call), so a server can recognise a call a recovered run makes again.

const echo = nodeScriptServer('meta', metaEchoScript());
const whoami = { server: 'meta', tool: 'whoami' };

describe("mcp_call's _meta", () => {
  const pool = new McpClientPool({ env: {} });
  afterAll(() => pool.close());

  test('carries the run, the attempt, the tool call id and their idempotency key; a direct call sends none', async () => {
    await using dir = await tempDir();
    const tools = new ToolRegistry(
      createMcpTools(resolveMcpServers([echo.config], { workdir: dir.path, env: {} }), pool),
    );
    const base = await contextFor(dir.path);
    const inRun = { ...base, run: { id: 'run_abc', attempt: 2 }, toolCallId: 'call_7' };
    expect(JSON.parse(await tools.execute('mcp_call', whoami, inRun))).toEqual({
      'keel/run_id': 'run_abc',
      'keel/attempt': 2,
      'keel/tool_call_id': 'call_7',
      'keel/idempotency_key': 'run_abc:call_7',
    });
    expect(JSON.parse(await tools.execute('mcp_call', whoami, base))).toBeNull();
  });
});

describe('an agent run calling an MCP tool', () => {
  test("the server gets the run's id, attempt 1 and the model's tool call id", async () => {
    await using h = await startHarness([
      { toolCalls: [{ id: 'call_meta_1', name: 'mcp_call', arguments: whoami }] },
      { text: 'Asked.' },
    ]);
    await writeFile(join(h.runtimeDir, 'config.json'), JSON.stringify({ mcp: { servers: [echo.config] } }));
    const { events, result, error } = await h.collect({ prompt: 'Who am I to the server?' });
    expect(error).toBeUndefined();
    const answer = events.find((event) => event.type === 'tool_result');
    const runId = result!.run_id;
    expect(JSON.parse((answer as { result: string }).result)).toEqual({
      'keel/run_id': runId,
      'keel/attempt': 1,
      'keel/tool_call_id': 'call_meta_1',
      'keel/idempotency_key': `${runId}:call_meta_1`,
    });
  });
});
