// Issue #39, item 4: an editor's MCP servers over HTTP (streamable HTTP) and SSE, from session/new and
// session/load, reach the model through mcp_call; their headers reach the server and nothing else; a
// server that cannot work is told to the model and the editor. Driven by the ACP SDK's client over stdio,
// against the real `keel acp`, with a real MCP server (the SDK's server side) on a loopback socket.
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PROTOCOL_VERSION, type SessionNotification } from '@agentclientprotocol/sdk';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { startAcp } from './acp-client.ts';
import { scenario } from './scenario.ts';

/** An MCP server with one tool, `define(word)`, whose answer names the transport it came over. */
function dictionary(transport: string): Server {
  const server = new Server({ name: 'dictionary', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: 'define',
        description: 'Defines a word.',
        inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [
      { type: 'text', text: `${String(request.params.arguments?.word)}: a ship's part (over ${transport})` },
    ],
  }));
  return server;
}

/**
 * The dictionary on a loopback port: streamable HTTP at /mcp (stateless), HTTP+SSE at /sse with messages
 * POSTed to /messages. Every request's method, path and headers are recorded.
 */
async function startDictionary() {
  const seen: Array<{ method: string; path: string; headers: IncomingHttpHeaders }> = [];
  const sseSessions = new Map<string, SSEServerTransport>();
  const http = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    seen.push({ method: request.method ?? '', path: url.pathname, headers: request.headers });
    if (url.pathname === '/mcp') {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await dictionary('http').connect(transport);
      await transport.handleRequest(request, response);
    } else if (url.pathname === '/sse' && request.method === 'GET') {
      const transport = new SSEServerTransport('/messages', response);
      sseSessions.set(transport.sessionId, transport);
      transport.onclose = () => sseSessions.delete(transport.sessionId);
      await dictionary('sse').connect(transport);
    } else if (url.pathname === '/messages' && sseSessions.has(url.searchParams.get('sessionId') ?? '')) {
      await sseSessions.get(url.searchParams.get('sessionId') ?? '')?.handlePostMessage(request, response);
    } else {
      response.writeHead(404).end('Not found');
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    async [Symbol.asyncDispose]() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The finished tool calls the editor was told of, in order. */
function finishedCalls(updates: SessionNotification[]) {
  return updates
    .map(({ update }) => update)
    .filter(
      (update): update is Extract<typeof update, { sessionUpdate: 'tool_call_update' }> =>
        update.sessionUpdate === 'tool_call_update' && update.status !== 'in_progress',
    );
}

/** Every file under `dir`, as text. */
async function filesUnder(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    names
      .filter((entry) => entry.isFile())
      .map((entry) => readFile(join(entry.parentPath, entry.name), 'utf8')),
  );
  return texts.join('\n');
}

const httpToken = 'http-token-8d1f3a';
const sseToken = 'sse-token-52c7e9';

describe('keel acp with the editor’s MCP servers over HTTP and SSE', () => {
  test('initialize advertises http and sse; tools over both reach the model and the editor, from session/new and session/load', {
    timeout: 90_000,
  }, async () => {
    await using dictionaryServer = await startDictionary();
    await using s = await scenario([
      {
        when: { lastMessageIncludes: 'define keel and hull' },
        toolCalls: [
          {
            name: 'mcp_call',
            arguments: { server: 'over-http', tool: 'define', arguments: { word: 'keel' } },
          },
          {
            name: 'mcp_call',
            arguments: { server: 'over-sse', tool: 'define', arguments: { word: 'hull' } },
          },
        ],
      },
      { when: { lastRole: 'tool' }, text: 'Both defined.' },
      {
        when: { lastMessageIncludes: 'define mast' },
        toolCalls: [
          {
            name: 'mcp_call',
            arguments: { server: 'over-sse', tool: 'define', arguments: { word: 'mast' } },
          },
        ],
      },
      { when: { lastRole: 'tool' }, text: 'Mast defined.' },
    ]);
    const servers = [
      {
        type: 'http' as const,
        name: 'over-http',
        url: `${dictionaryServer.origin}/mcp`,
        headers: [
          { name: 'Authorization', value: `Bearer ${httpToken}` },
          { name: 'X-Editor', value: 'test-editor' },
        ],
      },
      {
        type: 'sse' as const,
        name: 'over-sse',
        url: `${dictionaryServer.origin}/sse`,
        headers: [{ name: 'Authorization', value: `Bearer ${sseToken}` }],
      },
    ];
    const acp = startAcp(s.env, []);
    let sessionId = '';
    try {
      const init = await acp.agent.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
      ({ sessionId } = await acp.agent.request('session/new', { cwd: s.repo.path, mcpServers: servers }));

      const turn = await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'define keel and hull' }],
      });
      expect(turn.stopReason).toBe('end_turn');
      // The editor sees each call finish with the server's answer...
      const finished = finishedCalls(acp.updates);
      expect(finished.map((update) => update.status)).toEqual(['completed', 'completed']);
      expect(JSON.stringify(finished)).toContain("keel: a ship's part (over http)");
      expect(JSON.stringify(finished)).toContain("hull: a ship's part (over sse)");
      // ...and so does the model, in its next request.
      const answered = JSON.stringify(s.model.chatRequests.at(-1)?.messages);
      expect(answered).toContain("keel: a ship's part (over http)");
      expect(answered).toContain("hull: a ship's part (over sse)");
    } finally {
      await acp.stop();
    }

    // Another process loads the session with the sse server only; its tool works there too.
    const again = startAcp(s.env, []);
    try {
      await again.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      await again.agent.request('session/load', { sessionId, cwd: s.repo.path, mcpServers: [servers[1]] });
      again.updates.length = 0;
      const turn = await again.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'define mast' }],
      });
      expect(turn.stopReason).toBe('end_turn');
      expect(finishedCalls(again.updates)).toMatchObject([{ status: 'completed' }]);
      expect(JSON.stringify(s.model.chatRequests.at(-1)?.messages)).toContain(
        "mast: a ship's part (over sse)",
      );
    } finally {
      await again.stop();
    }

    // Each server got its own headers on every request: the stream, each message, each POST.
    const byPath = (path: string) => dictionaryServer.seen.filter((request) => request.path === path);
    expect(byPath('/mcp').length).toBeGreaterThanOrEqual(2);
    for (const request of byPath('/mcp')) {
      expect(request.headers).toMatchObject({
        authorization: `Bearer ${httpToken}`,
        'x-editor': 'test-editor',
      });
    }
    expect(byPath('/sse').map((request) => request.method)).toEqual(['GET', 'GET']);
    expect(byPath('/messages').length).toBeGreaterThanOrEqual(4);
    for (const request of [...byPath('/sse'), ...byPath('/messages')]) {
      expect(request.headers.authorization).toBe(`Bearer ${sseToken}`);
    }
    // The tokens went to the server and nowhere else: not to the model, the editor, the logs or the records.
    const elsewhere = [
      JSON.stringify(s.model.chatRequests),
      JSON.stringify(acp.wire.filter((line) => line.from === 'agent')),
      JSON.stringify(again.wire.filter((line) => line.from === 'agent')),
      acp.stderr(),
      again.stderr(),
      await filesUnder(s.home),
    ].join('\n');
    expect(elsewhere).toContain("mast: a ship's part (over sse)");
    expect(elsewhere).not.toContain(httpToken);
    expect(elsewhere).not.toContain(sseToken);
  });

  test('a bad URL and an unreachable server are told to the model and the editor, naming the server', {
    timeout: 60_000,
  }, async () => {
    const port = await closedPort();
    await using s = await scenario([
      {
        when: { lastMessageIncludes: 'use the servers' },
        toolCalls: [
          { name: 'mcp_call', arguments: { server: 'typo', tool: 'define', arguments: { word: 'keel' } } },
          { name: 'mcp_call', arguments: { server: 'offline', tool: 'define', arguments: { word: 'keel' } } },
        ],
      },
      { when: { lastRole: 'tool' }, toolCalls: [{ name: 'mcp_list_tools', arguments: {} }] },
      { when: { lastRole: 'tool' }, text: 'Neither server works.' },
    ]);
    const acp = startAcp(s.env, []);
    try {
      await acp.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await acp.agent.request('session/new', {
        cwd: s.repo.path,
        mcpServers: [
          { type: 'http', name: 'typo', url: 'htp//localhost/mcp', headers: [] },
          {
            type: 'sse',
            name: 'offline',
            url: `http://127.0.0.1:${port}/sse?token=in-the-url`,
            headers: [{ name: 'Authorization', value: 'Bearer in-the-header' }],
          },
        ],
      });
      const turn = await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'use the servers' }],
      });
      expect(turn.stopReason).toBe('end_turn');

      const typo = "MCP server 'typo' is misconfigured: url 'htp//localhost/mcp' is not a valid URL.";
      const offline = `MCP server 'offline' at http://127.0.0.1:${port}/sse could not be connected to: fetch failed: connect ECONNREFUSED 127.0.0.1:${port}`;
      const [typoCall, offlineCall, listing] = finishedCalls(acp.updates);
      expect(typoCall).toMatchObject({ status: 'failed' });
      expect(JSON.stringify(typoCall)).toContain(typo);
      expect(offlineCall).toMatchObject({ status: 'failed' });
      expect(JSON.stringify(offlineCall)).toContain(offline);
      // The listing names both, each with what is wrong.
      expect(listing).toMatchObject({ status: 'completed' });
      expect(JSON.stringify(listing)).toContain(`Server typo (http): unavailable. ${typo}`);
      expect(JSON.stringify(listing)).toContain(`Server offline (sse): unavailable. ${offline}`);
      const told = JSON.stringify(s.model.chatRequests.slice(1).map((request) => request.messages));
      expect(told).toContain(typo);
      expect(told).toContain(offline);
      expect(`${told}${JSON.stringify(acp.wire.filter((line) => line.from === 'agent'))}`).not.toMatch(
        /in-the-/,
      );
    } finally {
      await acp.stop();
    }
  });
});
