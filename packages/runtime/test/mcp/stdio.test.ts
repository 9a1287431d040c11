import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createMcpTools,
  McpClientPool,
  type McpServerConfig,
  resolveMcpServers,
} from '../../src/mcp/index.ts';
import { type ToolAuditRecord, ToolRegistry } from '../../src/tools/index.ts';
import { contextFor, type TempDir, tempDir } from '../tools/helpers.ts';
import { failureOf } from './failure-of.ts';
import {
  everythingStdio,
  expectNoProcessWith,
  nodeScriptServer,
  processesWith,
  ref,
  silentServerScript,
} from './reference-servers.ts';

/** The MCP meta tools over `servers`, run as the agent runs them: by name, arguments validated. */
function mcpTools(
  servers: McpServerConfig[],
  pool: McpClientPool,
  workdir: string,
  env: NodeJS.ProcessEnv = {},
) {
  return new ToolRegistry(createMcpTools(resolveMcpServers(servers, { workdir, env }), pool));
}

describe('MCP over stdio with the reference server "everything"', () => {
  const everything = everythingStdio();
  const ghost: McpServerConfig = { name: 'ghost', transport: 'stdio', command: 'keel-no-such-mcp-server' };
  const pool = new McpClientPool({ env: {} });
  const audit: ToolAuditRecord[] = [];
  let dir: TempDir;
  let tools: ToolRegistry;
  const run = async (name: string, args: unknown, signal?: AbortSignal) =>
    tools.execute(
      name,
      args,
      await contextFor(dir.path, {}, signal, { audit: (record) => void audit.push(record) }),
    );

  beforeAll(async () => {
    dir = await tempDir();
    tools = mcpTools([everything.config, ghost], pool, dir.path);
  });
  afterAll(async () => {
    await pool.close();
    await dir[Symbol.asyncDispose]();
  });

  test('mcp_list_tools lists every server: signatures and descriptions, a broken server as unavailable', async () => {
    const listing = await run('mcp_list_tools', {});
    expect(listing).toMatch(/^Server everything \(stdio\): \d+ tools$/m);
    expect(listing).toContain('- echo(message: string): Echoes back the input string');
    expect(listing).toContain('- get-sum(a: number, b: number): Returns the sum of two numbers');
    expect(listing).toContain('trigger-long-running-operation(duration?: number = 10, steps?: number = 5)');
    expect(listing).toContain(
      "Server ghost (stdio): unavailable. MCP server 'ghost' could not start: the command 'keel-no-such-mcp-server' was not found.",
    );
    // The overview leaves out per-argument lines; one server's listing has them.
    expect(listing).not.toContain('    a: First number');
    const one = await run('mcp_list_tools', { server: 'everything' });
    expect(one).toContain(
      '- get-sum(a: number, b: number): Returns the sum of two numbers\n    a: First number\n    b: Second number',
    );
    expect(one).not.toContain('ghost');
  });

  test('mcp_call calls echo and get-sum and returns their text', async () => {
    expect(
      await run('mcp_call', {
        server: 'everything',
        tool: 'echo',
        arguments: { message: 'hello from keel' },
      }),
    ).toBe('Echo: hello from keel');
    expect(await run('mcp_call', { server: 'everything', tool: 'get-sum', arguments: { a: 2, b: 3 } })).toBe(
      'The sum of 2 and 3 is 5.',
    );
  });

  test('the calls appear in the audit records with their arguments and outcome', async () => {
    audit.length = 0;
    await run('mcp_call', { server: 'everything', tool: 'echo', arguments: { message: 'audited' } });
    await failureOf(run('mcp_call', { server: 'everything', tool: 'get-sum', arguments: { a: 'x', b: 1 } }));
    expect(audit).toEqual([
      {
        tool_name: 'mcp_call',
        args: { server: 'everything', tool: 'echo', arguments: { message: 'audited' } },
        result: 'Echo: audited',
        success: true,
      },
      expect.objectContaining({ tool_name: 'mcp_call', success: false }),
    ]);
  });

  test('a result with isError is a tool error carrying the server’s message', async () => {
    const error = await failureOf(
      run('mcp_call', { server: 'everything', tool: 'get-sum', arguments: { a: 'two', b: 3 } }),
    );
    expect(error.code).toBe('TOOL_ERROR');
    expect(error.message).toContain("MCP tool 'get-sum' of server 'everything' returned an error:");
    expect(error.message).toContain('expected number');
  });

  test('images and resource links are summarised, not dumped', async () => {
    expect(await run('mcp_call', { server: 'everything', tool: 'get-tiny-image' })).toMatch(
      /\[image: image\/png, \d+(\.\d)? (bytes|KiB)\]/,
    );
    const links = await run('mcp_call', {
      server: 'everything',
      tool: 'get-resource-links',
      arguments: { count: 2 },
    });
    expect(links).toContain('Here are 2 resource links');
    expect(links).toMatch(/\[resource link: .+ <demo:\/\/resource\/dynamic\/\w+\/1> \(text\/plain\)/);
  });

  test('an unknown server or tool is refused with the names that exist', async () => {
    const server = await failureOf(run('mcp_call', { server: 'nope', tool: 'echo' }));
    expect(server.code).toBe('INVALID_PARAMS');
    expect(server.message).toBe(
      "There is no MCP server named 'nope'. Configured servers: everything, ghost.",
    );
    const tool = await failureOf(run('mcp_call', { server: 'everything', tool: 'nope' }));
    expect(tool.code).toBe('INVALID_PARAMS');
    expect(tool.message).toMatch(/^MCP server 'everything' has no tool 'nope'\. Its tools: echo, .*get-sum/);
    const args = await failureOf(run('mcp_call', { server: 'everything', tool: 'echo', arguments: 'hi' }));
    expect(args.code).toBe('INVALID_PARAMS');
    expect(args.message).toContain('arguments');
  });

  test('a server command that does not exist is a tool error naming the server, not a crash', async () => {
    const error = await failureOf(run('mcp_call', { server: 'ghost', tool: 'anything' }));
    expect(error.code).toBe('TOOL_ERROR');
    expect(error.message).toContain(
      "MCP server 'ghost' could not start: the command 'keel-no-such-mcp-server' was not found",
    );
  });

  test('the server is started once and reused by every call', async () => {
    await run('mcp_call', { server: 'everything', tool: 'echo', arguments: { message: 'again' } });
    expect(processesWith(everything.marker)).toHaveLength(1);
  });

  test('a call slower than call_timeout_ms fails with TIMEOUT and the server keeps working', async () => {
    const slow = everythingStdio('slow', { call_timeout_ms: 300 });
    const slowPool = new McpClientPool({ env: {} });
    const slowTools = mcpTools([slow.config], slowPool, dir.path);
    const ctx = await contextFor(dir.path);
    try {
      const started = Date.now();
      const error = await failureOf(
        slowTools.execute(
          'mcp_call',
          { server: 'slow', tool: 'trigger-long-running-operation', arguments: { duration: 5, steps: 5 } },
          ctx,
        ),
      );
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(error.code).toBe('TIMEOUT');
      expect(error.message).toContain(
        "MCP server 'slow' did not answer tools/call 'trigger-long-running-operation' within 300 ms",
      );
      expect(
        await slowTools.execute(
          'mcp_call',
          { server: 'slow', tool: 'echo', arguments: { message: 'still here' } },
          ctx,
        ),
      ).toBe('Echo: still here');
    } finally {
      await slowPool.close();
    }
    await expectNoProcessWith(slow.marker);
  });

  test('a server that never answers initialize times out and its process is stopped', async () => {
    const silent = nodeScriptServer('silent', silentServerScript, { connect_timeout_ms: 300 });
    const silentPool = new McpClientPool({ env: {} });
    const silentTools = mcpTools([silent.config], silentPool, dir.path);
    try {
      const started = Date.now();
      const error = await failureOf(
        silentTools.execute('mcp_call', { server: 'silent', tool: 'x' }, await contextFor(dir.path)),
      );
      // The server's connect_timeout_ms applies, not the default 30 s.
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(error.code).toBe('TIMEOUT');
      expect(error.message).toContain("MCP server 'silent' did not answer within 300 ms of connecting");
      // Killed at once, not after the two seconds the SDK’s polite close would give it.
      await expectNoProcessWith(silent.marker, 1_000);
    } finally {
      await silentPool.close();
    }
  });

  test('a server that exits at start says so, with the end of its stderr', async () => {
    const crashing = nodeScriptServer(
      'crashing',
      'console.error("missing API key for the service"); process.exit(3)',
    );
    const crashPool = new McpClientPool({ env: {} });
    try {
      const error = await failureOf(
        mcpTools([crashing.config], crashPool, dir.path).execute(
          'mcp_list_tools',
          { server: 'crashing' },
          await contextFor(dir.path),
        ),
      );
      expect(error.code).toBe('TOOL_ERROR');
      expect(error.message).toBe(
        "MCP server 'crashing' exited before it finished connecting. Its stderr ended with:\nmissing API key for the service",
      );
    } finally {
      await crashPool.close();
    }
  });

  test('cancelling the run’s signal stops a call at once', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const call = run(
      'mcp_call',
      {
        server: 'everything',
        tool: 'trigger-long-running-operation',
        arguments: { duration: 10, steps: 10 },
      },
      controller.signal,
    );
    setTimeout(() => controller.abort(), 200);
    const error = await failureOf(call);
    expect(error.code).toBe('CANCELLED');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  test('many calls under one run signal leave no listeners behind on it', async () => {
    const signal = new AbortController().signal;
    for (let index = 0; index < 12; index += 1) {
      await run(
        'mcp_call',
        { server: 'everything', tool: 'echo', arguments: { message: `${index}` } },
        signal,
      );
    }
    await run('mcp_list_tools', {}, signal);
    // Each would otherwise fire when the run ends (and Node warns of a leak past ten).
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  test('a server that died is started again on the next call', async () => {
    const [pid] = processesWith(everything.marker);
    expect(pid).toBeDefined();
    process.kill(pid!, 'SIGKILL');
    await expectNoProcessWith(everything.marker);
    // A call may still meet the dead session before the client has noticed; it then says so plainly.
    const first = await run('mcp_call', {
      server: 'everything',
      tool: 'echo',
      arguments: { message: 'x' },
    }).catch((error: Error) => error.message);
    if (first !== 'Echo: x') {
      expect(first).toMatch(
        /^MCP server 'everything' exited; the next call starts it again \(it happened during tools\/call 'echo'\)\./,
      );
    }
    expect(
      await run('mcp_call', { server: 'everything', tool: 'echo', arguments: { message: 'back' } }),
    ).toBe('Echo: back');
    expect(processesWith(everything.marker)).toHaveLength(1);
    expect(processesWith(everything.marker)[0]).not.toBe(pid);
  });
});

describe('the environment of a stdio server', () => {
  test('has the runtime’s environment without its secrets, the entry’s env on top, variables expanded', async () => {
    await using dir = await tempDir();
    const server = everythingStdio('env', {
      env: {
        FROM_CONFIG: 'set-in-config',
        SERVICE_TOKEN: ref('KEEL_TEST_SERVICE_TOKEN'),
      },
    });
    const env = {
      PATH: process.env.PATH,
      KEEL_VISIBLE: 'yes',
      RUNTIME_MODEL_API_KEY: 'sk-model-secret',
      RUNTIME_AUTH_API_KEY: 'auth-secret',
      GITHUB_TOKEN: 'ghp-secret',
      KEEL_TEST_SERVICE_TOKEN: 'token-for-the-server',
    };
    const pool = new McpClientPool({ env });
    try {
      const text = await mcpTools([server.config], pool, dir.path, env).execute(
        'mcp_call',
        { server: 'env', tool: 'get-env' },
        await contextFor(dir.path),
      );
      const seen = JSON.parse(text) as Record<string, string>;
      expect(seen).toMatchObject({
        KEEL_VISIBLE: 'yes',
        FROM_CONFIG: 'set-in-config',
        SERVICE_TOKEN: 'token-for-the-server',
      });
      expect(seen).not.toHaveProperty('RUNTIME_MODEL_API_KEY');
      expect(seen).not.toHaveProperty('RUNTIME_AUTH_API_KEY');
      expect(seen).not.toHaveProperty('GITHUB_TOKEN');
      expect(text).not.toContain('secret');
    } finally {
      await pool.close();
    }
  });
});

describe('closing the pool', () => {
  test('gives up a connect under way at once and stops that server too', async () => {
    await using dir = await tempDir();
    const silent = nodeScriptServer('silent', silentServerScript, { connect_timeout_ms: 30_000 });
    const pool = new McpClientPool({ env: {} });
    const tools = mcpTools([silent.config], pool, dir.path);
    const call = failureOf(
      tools.execute('mcp_call', { server: 'silent', tool: 'x' }, await contextFor(dir.path)),
    );
    await expect.poll(() => processesWith(silent.marker).length).toBe(1);
    const started = Date.now();
    await pool.close();
    // close() does not wait for the connect's 30 s timeout.
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await call).message).toBe("MCP server 'silent' is not available: the runtime is closed.");
    // Killed at once, not after the two seconds the SDK’s polite close would give it.
    await expectNoProcessWith(silent.marker, 1_000);
  });

  test('stops every server it started and refuses new connections', async () => {
    await using dir = await tempDir();
    const first = everythingStdio('first');
    const second = everythingStdio('second');
    const pool = new McpClientPool({ env: {} });
    const tools = mcpTools([first.config, second.config], pool, dir.path);
    const ctx = await contextFor(dir.path);
    await tools.execute('mcp_list_tools', {}, ctx);
    expect(processesWith(first.marker)).toHaveLength(1);
    expect(processesWith(second.marker)).toHaveLength(1);

    await pool.close();
    await expectNoProcessWith(first.marker);
    await expectNoProcessWith(second.marker);
    const error = await failureOf(tools.execute('mcp_call', { server: 'first', tool: 'echo' }, ctx));
    expect(error.message).toBe("MCP server 'first' is not available: the runtime is closed.");
    await pool.close();
  });
});
