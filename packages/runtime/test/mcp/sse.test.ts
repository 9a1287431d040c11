import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '@keel/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createMcpTools,
  McpClientPool,
  type McpServerConfig,
  type McpServerDefinition,
  resolveMcpServers,
} from '../../src/mcp/index.ts';
import { ToolRegistry } from '../../src/tools/index.ts';
import { contextFor, type TempDir, tempDir } from '../tools/helpers.ts';
import { failureOf } from './failure-of.ts';
import { everythingEntry, freePort, ref, startRecordingProxy } from './reference-servers.ts';

/** The reference server "everything" serving the older HTTP+SSE transport (GET /sse, POST /message). */
async function startEverythingSse(port: number) {
  const child = spawn(process.execPath, [everythingEntry, 'sse'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  await eventually(() => output.includes('Server is running on port') || child.exitCode !== null, {
    timeoutMs: 15_000,
    what: () => `the SSE server to listen; it printed: ${output}`,
  });
  if (child.exitCode !== null) throw new Error(`the SSE server exited: ${output}`);
  return {
    url: `http://127.0.0.1:${port}/sse`,
    output: () => output,
    stop: () => stopProcess(child),
  };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

describe('MCP over HTTP+SSE with the reference server "everything"', () => {
  let port: number;
  let server: Awaited<ReturnType<typeof startEverythingSse>>;
  let dir: TempDir;

  beforeAll(async () => {
    port = await freePort();
    server = await startEverythingSse(port);
    dir = await tempDir();
  });
  afterAll(async () => {
    await server?.stop();
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

  test('an sse entry resolves like an http one, and an entry naming an unknown transport is unusable', () => {
    expect(
      resolveMcpServers(
        [
          {
            name: 'legacy',
            transport: 'sse',
            url: 'https://mcp.example.com/sse',
            headers: { 'X-Team': 'core' },
          },
          { name: 'mixed', transport: 'sse', url: 'https://mcp.example.com/sse', args: ['x'] },
          { name: 'no-url', transport: 'sse' },
          { name: 'future', transport: 'websocket' as McpServerConfig['transport'], url: 'ws://x/mcp' },
        ],
        { workdir: dir.path, env: {} },
      ),
    ).toMatchObject([
      { name: 'legacy', transport: 'sse', url: 'https://mcp.example.com/sse', headers: { 'X-Team': 'core' } },
      {
        problem:
          "MCP server 'mixed' is misconfigured: command, args and env belong to the stdio transport; an sse server needs url (and headers).",
      },
      { problem: "MCP server 'no-url' is misconfigured: an sse server needs a url." },
      {
        problem:
          "MCP server 'future' is misconfigured: transport 'websocket' is not one Keel speaks: use stdio, http or sse.",
      },
    ]);
  });

  test('lists and calls tools, and sends the configured headers on the stream and with every message', async () => {
    await using proxy = await startRecordingProxy(port);
    const { pool, run } = toolsFor(
      [
        {
          name: 'legacy',
          transport: 'sse',
          url: new URL('/sse', proxy.url).href,
          headers: { Authorization: `Bearer ${ref('KEEL_TEST_MCP_TOKEN')}`, 'X-Keel-Test': 'yes' },
        },
      ],
      { KEEL_TEST_MCP_TOKEN: 'token-123' },
    );
    const connected = server.output().split('Client Connected').length;
    try {
      const listing = await run('mcp_list_tools', { server: 'legacy' });
      expect(listing).toMatch(/^Server legacy \(sse\): \d+ tools$/m);
      expect(listing).toContain('- echo(message: string): Echoes back the input string');
      expect(await run('mcp_call', { server: 'legacy', tool: 'get-sum', arguments: { a: 40, b: 2 } })).toBe(
        'The sum of 40 and 2 is 42.',
      );
      expect(
        await run('mcp_call', { server: 'legacy', tool: 'echo', arguments: { message: 'over sse' } }),
      ).toBe('Echo: over sse');
      // One event stream (GET) for every call; each message is a POST; all carry the headers.
      expect(proxy.seen.filter((request) => request.method === 'GET')).toHaveLength(1);
      expect(proxy.seen.filter((request) => request.method === 'POST').length).toBeGreaterThanOrEqual(4);
      for (const request of proxy.seen) {
        expect(request.headers).toMatchObject({ authorization: 'Bearer token-123', 'x-keel-test': 'yes' });
      }
      expect(server.output().split('Client Connected').length).toBe(connected + 1);
    } finally {
      await pool.close();
    }
  });

  test('a server that is not listening, or a URL that is not an event stream, is a tool error saying what to check', async () => {
    const offlinePort = await freePort();
    const { pool, run } = toolsFor([
      {
        name: 'offline',
        transport: 'sse',
        url: `http://127.0.0.1:${offlinePort}/sse?token=secret-in-url`,
        headers: { Authorization: 'Bearer secret-in-header' },
      },
      { name: 'wrong-path', transport: 'sse', url: `http://127.0.0.1:${port}/not-sse` },
    ]);
    try {
      const offline = await failureOf(run('mcp_call', { server: 'offline', tool: 'echo' }));
      expect(offline.code).toBe('TOOL_ERROR');
      expect(offline.message).toBe(
        `MCP server 'offline' at http://127.0.0.1:${offlinePort}/sse could not be connected to: fetch failed: connect ECONNREFUSED 127.0.0.1:${offlinePort}`,
      );
      const wrongPath = await failureOf(run('mcp_call', { server: 'wrong-path', tool: 'echo' }));
      expect(wrongPath.message).toBe(
        `MCP server 'wrong-path' at http://127.0.0.1:${port}/not-sse could not be connected to: HTTP 404 for the event stream. ` +
          "Check that url is the server's event stream (often ending in /sse); a server that speaks streamable HTTP needs transport http.",
      );
      const listing = await run('mcp_list_tools', {});
      expect(listing).toContain("Server offline (sse): unavailable. MCP server 'offline' at");
      expect(listing).toContain("Server wrong-path (sse): unavailable. MCP server 'wrong-path' at");
      expect(JSON.stringify([offline, wrongPath, listing])).not.toMatch(/secret-in/);
    } finally {
      await pool.close();
    }
  });

  test('a server that never opens its stream is given up after connect_timeout_ms, and at once when the pool closes', async () => {
    const requests: string[] = [];
    const silent = createServer((incoming) => {
      requests.push(incoming.url ?? '');
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/sse`;
    try {
      const { pool, run } = toolsFor([
        { name: 'silent', transport: 'sse', url, connect_timeout_ms: 300 },
        { name: 'waiting', transport: 'sse', url: `${url}?waiting` },
      ]);
      const timedOut = await failureOf(run('mcp_call', { server: 'silent', tool: 'echo' }));
      expect(timedOut.code).toBe('TIMEOUT');
      expect(timedOut.message).toBe(
        "MCP server 'silent' did not answer within 300 ms of connecting (its connect_timeout_ms), so it was given up.",
      );
      // The default 30 s timeout: closing the pool must not wait for it.
      const waiting = failureOf(run('mcp_call', { server: 'waiting', tool: 'echo' }));
      await eventually(() => requests.includes('/sse?waiting'), { what: 'the stream to be asked for' });
      const started = Date.now();
      await pool.close();
      expect((await waiting).message).toBe("MCP server 'waiting' is not available: the runtime is closed.");
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  test('a stream that breaks ends the connection, the next use connects to the restarted server, and closing ends the stream', async () => {
    const restartPort = await freePort();
    let restartable = await startEverythingSse(restartPort);
    const [definition] = resolveMcpServers(
      [{ name: 'restartable', transport: 'sse', url: restartable.url }],
      { workdir: dir.path, env: {} },
    ) as McpServerDefinition[];
    if (definition === undefined) throw new Error('no definition');
    const pool = new McpClientPool({ env: {} });
    const signal = new AbortController().signal;
    try {
      const first = await pool.connection(definition, signal);
      expect((await first.listTools(signal)).map((tool) => tool.name)).toContain('echo');
      await restartable.stop();
      await eventually(() => first.closed, { what: 'the connection to count as closed' });
      restartable = await startEverythingSse(restartPort);
      const second = await pool.connection(definition, signal);
      expect(second).not.toBe(first);
      const result = await second.callTool('echo', { message: 'again' }, signal);
      expect(result.content).toEqual([{ type: 'text', text: 'Echo: again' }]);
      await pool.close();
      await eventually(() => restartable.output().includes('Client Disconnected'), {
        what: 'the server to see the session end',
      });
    } finally {
      await pool.close();
      await restartable.stop();
    }
  });
});
