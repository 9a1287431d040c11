// Issue #23: MCP servers in the settings: secret env values masked (and kept when the mask comes back), a
// bad env entry refused by name, and a health check that starts the real reference server.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startWorkbench } from '../harness.ts';

// The MCP reference server "everything", installed for the MCP tests.
const everythingEntry = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

describe('MCP servers in the settings', () => {
  test('secret-looking env values are masked, kept when the mask is sent back, replaced when changed', async () => {
    await using wb = await startWorkbench([], { configure: false });
    const { api } = wb;
    const server = {
      name: 'tools',
      command: process.execPath,
      args: [everythingEntry, 'stdio'],
      env: { GITHUB_TOKEN: 'ghp_secret1', DB_PASSWORD: 'hunter2', LOG_LEVEL: 'debug', Auth_Header: 'x' },
    };
    const put = await api('PUT', '/api/settings', { mcp_servers: [server] });
    expect(put.status).toBe(200);
    const masked = {
      GITHUB_TOKEN: '••••',
      DB_PASSWORD: '••••',
      LOG_LEVEL: 'debug',
      Auth_Header: '••••',
    };
    expect(put.body.mcp_servers[0]).toMatchObject({
      env: masked,
      env_set: { GITHUB_TOKEN: true, DB_PASSWORD: true, Auth_Header: true },
    });
    const got = (await api('GET', '/api/settings')).body;
    expect(got.mcp_servers[0].env).toEqual(masked);
    expect(JSON.stringify(got)).not.toContain('ghp_secret1');
    expect(JSON.stringify(got)).not.toContain('hunter2');

    // What GET answered, sent back with one value changed: the masks keep the stored values.
    const back = { ...got.mcp_servers[0], env: { ...got.mcp_servers[0].env, DB_PASSWORD: 'new-pass' } };
    expect((await api('PUT', '/api/settings', { mcp_servers: [back] })).status).toBe(200);
    const stored = (await wb.workbench.services.settings.stored()).mcp_servers[0];
    expect(stored?.env).toEqual({
      GITHUB_TOKEN: 'ghp_secret1',
      DB_PASSWORD: 'new-pass',
      LOG_LEVEL: 'debug',
      Auth_Header: 'x',
    });
    expect(stored).not.toHaveProperty('env_set');

    // A mask with nothing stored behind it is refused, not saved as the value.
    const stray = await api('PUT', '/api/settings', {
      mcp_servers: [{ name: 'other', command: 'x', env: { API_KEY: '••••' } }],
    });
    expect(stray.status).toBe(400);
    expect(stray.body.error).toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringContaining('mcp_servers.0.env.API_KEY'),
    });
  });

  test('a bad env entry is refused with 400 naming it', async () => {
    await using wb = await startWorkbench([], { configure: false });
    const bad = await wb.api('PUT', '/api/settings', {
      mcp_servers: [{ name: 'fs', command: 'npx', env: { 'MY TOKEN=abc': 'x', GOOD: 'y' } }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PARAMS');
    expect(bad.body.error.message).toContain('env entry "MY TOKEN=abc" is not a variable name');
    expect((await wb.workbench.services.settings.stored()).mcp_servers).toEqual([]);
  });

  test('the health check starts the server, lists its tools; a broken one says why; unknown is 404', {
    timeout: 60_000,
  }, async () => {
    await using wb = await startWorkbench([], { configure: false });
    const { api } = wb;
    await api('PUT', '/api/settings', {
      mcp_servers: [
        { name: 'everything', command: process.execPath, args: [everythingEntry, 'stdio'] },
        {
          name: 'broken',
          command: process.execPath,
          args: ['-e', 'process.stderr.write("cannot start: no config\\n"); process.exit(3)'],
        },
        {
          // A server that prints its own secret on the way down: the answer must not carry it.
          name: 'chatty',
          command: process.execPath,
          args: ['-e', 'process.stderr.write("token is " + process.env.API_TOKEN + "\\n"); process.exit(3)'],
          env: { API_TOKEN: 'tok-very-secret-7' },
        },
      ],
    });
    const healthy = await api('POST', '/api/settings/mcp-servers/everything/health');
    expect(healthy.status).toBe(200);
    expect(healthy.body).toMatchObject({ name: 'everything', ok: true });
    expect(healthy.body.tool_count).toBeGreaterThan(0);
    expect(healthy.body.tools).toContain('echo');
    expect(healthy.body.tools).toHaveLength(healthy.body.tool_count);

    const broken = await api('POST', '/api/settings/mcp-servers/broken/health');
    expect(broken.status).toBe(200);
    expect(broken.body).toMatchObject({ name: 'broken', ok: false, tool_count: 0 });
    expect(broken.body.error.message).toContain("The MCP server 'broken'");
    expect(broken.body.error.message).toContain('cannot start: no config');

    const chatty = await api('POST', '/api/settings/mcp-servers/chatty/health');
    expect(chatty.body.error.message).toContain('token is ••••');
    expect(JSON.stringify(chatty.body)).not.toContain('tok-very-secret-7');

    const unknown = await api('POST', '/api/settings/mcp-servers/nope/health');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('MCP_SERVER_NOT_FOUND');
  });
});
