import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createMcpTools,
  McpClientPool,
  type McpServerConfig,
  resolveMcpServers,
} from '../../src/mcp/index.ts';
import { ToolRegistry } from '../../src/tools/index.ts';
import { contextFor, type TempDir, tempDir } from '../tools/helpers.ts';
import { failureOf } from './failure-of.ts';
import { freePort, ref, startEverythingHttp, startRecordingProxy } from './reference-servers.ts';

describe('MCP over streamable HTTP with the reference server "everything"', () => {
  let server: Awaited<ReturnType<typeof startEverythingHttp>>;
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  let dir: TempDir;

  beforeAll(async () => {
    server = await startEverythingHttp();
    proxy = await startRecordingProxy(server.port);
    dir = await tempDir();
  });
  afterAll(async () => {
    await proxy?.[Symbol.asyncDispose]();
    await server?.[Symbol.asyncDispose]();
    await dir?.[Symbol.asyncDispose]();
  });

  /** The meta tools over `servers` with their own pool; `env` is what `${VAR}` reads. */
  function toolsFor(servers: McpServerConfig[], env: NodeJS.ProcessEnv = {}) {
    const pool = new McpClientPool({ env });
    const tools = new ToolRegistry(
      createMcpTools(resolveMcpServers(servers, { workdir: dir.path, env }), pool),
    );
    return {
      pool,
      run: async (name: string, args: unknown) => tools.execute(name, args, await contextFor(dir.path)),
    };
  }

  test('lists and calls tools, sends the configured headers, and ends the session on close', async () => {
    const { pool, run } = toolsFor(
      [
        {
          name: 'remote',
          transport: 'http',
          url: proxy.url,
          headers: { Authorization: `Bearer ${ref('KEEL_TEST_MCP_TOKEN')}`, 'X-Keel-Test': 'yes' },
        },
      ],
      { KEEL_TEST_MCP_TOKEN: 'token-123' },
    );
    try {
      const listing = await run('mcp_list_tools', { server: 'remote' });
      expect(listing).toMatch(/^Server remote \(http\): \d+ tools$/m);
      expect(listing).toContain('- echo(message: string): Echoes back the input string');
      expect(await run('mcp_call', { server: 'remote', tool: 'get-sum', arguments: { a: 40, b: 2 } })).toBe(
        'The sum of 40 and 2 is 42.',
      );
      expect(
        await run('mcp_call', { server: 'remote', tool: 'echo', arguments: { message: 'over http' } }),
      ).toBe('Echo: over http');
      const posts = proxy.seen.filter((request) => request.method === 'POST');
      expect(posts.length).toBeGreaterThanOrEqual(3);
      for (const post of posts) {
        expect(post.headers).toMatchObject({ authorization: 'Bearer token-123', 'x-keel-test': 'yes' });
      }
      // One session for every call: the initialize request is the only one without a session id.
      expect(posts.filter((post) => post.headers['mcp-session-id'] === undefined)).toHaveLength(1);
    } finally {
      await pool.close();
    }
    expect(proxy.seen.at(-1)?.method).toBe('DELETE');
  });

  test('an isError result is a tool error', async () => {
    const { pool, run } = toolsFor([{ name: 'remote', transport: 'http', url: server.url }]);
    try {
      const error = await failureOf(
        run('mcp_call', { server: 'remote', tool: 'get-sum', arguments: { a: 1 } }),
      );
      expect(error.code).toBe('TOOL_ERROR');
      expect(error.message).toContain("MCP tool 'get-sum' of server 'remote' returned an error:");
    } finally {
      await pool.close();
    }
  });

  test('a server that is not listening, or a wrong path, is a tool error naming the server and the address', async () => {
    const port = await freePort();
    const { pool, run } = toolsFor([
      { name: 'offline', transport: 'http', url: `http://127.0.0.1:${port}/mcp?token=secret-in-url` },
      { name: 'wrong-path', transport: 'http', url: `http://127.0.0.1:${server.port}/not-mcp` },
    ]);
    try {
      const offline = await failureOf(run('mcp_call', { server: 'offline', tool: 'echo' }));
      expect(offline.code).toBe('TOOL_ERROR');
      expect(offline.message).toBe(
        `MCP server 'offline' at http://127.0.0.1:${port}/mcp could not be connected to: fetch failed (ECONNREFUSED)`,
      );
      const wrongPath = await failureOf(run('mcp_call', { server: 'wrong-path', tool: 'echo' }));
      expect(wrongPath.message).toMatch(
        new RegExp(
          `^MCP server 'wrong-path' at http://127.0.0.1:${server.port}/not-mcp could not be connected to: HTTP 404: .*Cannot POST /not-mcp`,
        ),
      );
      // The overview still answers, with both servers marked unavailable.
      const listing = await run('mcp_list_tools', {});
      expect(listing).toContain("Server offline (http): unavailable. MCP server 'offline' at");
      expect(listing).toContain("Server wrong-path (http): unavailable. MCP server 'wrong-path' at");
    } finally {
      await pool.close();
    }
  });
});
