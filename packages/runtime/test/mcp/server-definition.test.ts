import { describe, expect, test } from 'vitest';
import {
  defaultCallTimeoutMs,
  defaultConnectTimeoutMs,
  definitionKey,
  type McpServerConfig,
  type McpServerDefinition,
  resolveMcpServers,
  type StdioServerDefinition,
} from '../../src/mcp/index.ts';

const workdir = '/work/project';

function resolveOne(server: McpServerConfig, env: NodeJS.ProcessEnv = {}) {
  const [entry] = resolveMcpServers([server], { workdir, env });
  return entry;
}

function problemOf(server: McpServerConfig, env: NodeJS.ProcessEnv = {}): string | undefined {
  const entry = resolveOne(server, env);
  return entry && 'problem' in entry ? entry.problem : undefined;
}

import { ref } from './reference-servers.ts';

describe('resolving config mcp.servers', () => {
  test('a stdio entry gets defaults, runs in the workdir, and a relative command path means the project’s file', () => {
    expect(resolveOne({ name: 'files', transport: 'stdio', command: 'npx', args: ['-y', 'server'] })).toEqual(
      {
        name: 'files',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', 'server'],
        env: {},
        cwd: workdir,
        connectTimeoutMs: defaultConnectTimeoutMs,
        callTimeoutMs: defaultCallTimeoutMs,
      },
    );
    expect(resolveOne({ name: 'local', transport: 'stdio', command: './tools/server.js' })).toMatchObject({
      command: '/work/project/tools/server.js',
    });
  });

  test('an http entry keeps its url and headers; timeouts come from the entry when given', () => {
    expect(
      resolveOne({
        name: 'remote',
        transport: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { 'X-Team': 'core' },
        connect_timeout_ms: 5000,
        call_timeout_ms: 9000,
      }),
    ).toEqual({
      name: 'remote',
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Team': 'core' },
      connectTimeoutMs: 5000,
      callTimeoutMs: 9000,
    });
  });

  test('variables, with or without a fallback, are expanded from the environment in every string field', () => {
    const env = { TOKEN: 't-1', HOST: 'mcp.example.com', DIR: '/srv' };
    expect(
      resolveOne(
        {
          name: 'remote',
          transport: 'http',
          url: `https://${ref('HOST')}/mcp`,
          headers: { Authorization: `Bearer ${ref('TOKEN')}`, Region: ref('REGION:-eu') },
        },
        env,
      ),
    ).toMatchObject({
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer t-1', Region: 'eu' },
    });
    expect(
      resolveOne(
        {
          name: 'local',
          transport: 'stdio',
          command: 'server',
          args: [`${ref('DIR')}/data`],
          env: { KEY: ref('TOKEN') },
        },
        env,
      ),
    ).toMatchObject({ args: ['/srv/data'], env: { KEY: 't-1' } });
  });

  test('an unset variable or one naming the runtime’s own keys makes the server unusable, saying which', () => {
    expect(
      problemOf({
        name: 'gh',
        transport: 'stdio',
        command: 'gh-mcp',
        env: { GITHUB_TOKEN: ref('GITHUB_TOKEN') },
      }),
    ).toBe(
      `MCP server 'gh' is misconfigured: env.GITHUB_TOKEN refers to ${ref('GITHUB_TOKEN')}, which is not set in the environment.`,
    );
    expect(
      problemOf(
        {
          name: 'leak',
          transport: 'http',
          url: 'http://x/mcp',
          headers: { Authorization: ref('RUNTIME_MODEL_API_KEY') },
        },
        { RUNTIME_MODEL_API_KEY: 'sk-secret' },
      ),
    ).toBe(
      `MCP server 'leak' is misconfigured: headers.Authorization refers to ${ref('RUNTIME_MODEL_API_KEY')}, but the runtime's own keys are never passed to MCP servers.`,
    );
  });

  test('entries that cannot work are reported per server, and the others still resolve', () => {
    const entries = resolveMcpServers(
      [
        { name: 'ok', transport: 'stdio', command: 'server' },
        { name: 'no-command', transport: 'stdio' },
        { name: 'no-url', transport: 'http' },
        { name: 'bad-url', transport: 'http', url: 'not a url' },
        { name: 'ftp', transport: 'http', url: 'ftp://example.com/mcp' },
        { name: 'mixed', transport: 'http', url: 'http://x/mcp', command: 'server' },
        { name: 'has space', transport: 'stdio', command: 'server' },
        { name: 'ok', transport: 'stdio', command: 'other' },
      ],
      { workdir, env: {} },
    );
    expect(entries.map((entry) => ('problem' in entry ? entry.problem : 'usable'))).toEqual([
      'usable',
      "MCP server 'no-command' is misconfigured: a stdio server needs a command.",
      "MCP server 'no-url' is misconfigured: an http server needs a url.",
      "MCP server 'bad-url' is misconfigured: url 'not a url' is not a valid URL.",
      "MCP server 'ftp' is misconfigured: url must start with http:// or https://, not ftp://.",
      "MCP server 'mixed' is misconfigured: command, args and env belong to the stdio transport; an http server needs url (and headers).",
      `MCP server 'has space' is misconfigured: the name must be 1 to 64 letters, digits, "_" or "-".`,
      "MCP server 'ok' is misconfigured: another server earlier in mcp.servers has the same name.",
    ]);
  });

  test('definitions that are alike share a key; any difference gives another', () => {
    const base = resolveOne({
      name: 's',
      transport: 'stdio',
      command: 'server',
      env: { A: '1', B: '2' },
    }) as StdioServerDefinition;
    const reordered = resolveOne({
      name: 's',
      transport: 'stdio',
      command: 'server',
      env: { B: '2', A: '1' },
    }) as McpServerDefinition;
    expect(definitionKey(reordered)).toBe(definitionKey(base));
    const otherDir = resolveMcpServers(
      [{ name: 's', transport: 'stdio', command: 'server', env: { A: '1', B: '2' } }],
      {
        workdir: '/elsewhere',
        env: {},
      },
    )[0] as McpServerDefinition;
    expect(definitionKey(otherDir)).not.toBe(definitionKey(base));
    expect(definitionKey({ ...base, args: ['--flag'] })).not.toBe(definitionKey(base));
  });
});
