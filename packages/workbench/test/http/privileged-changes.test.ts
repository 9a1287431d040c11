// Choosing which program the workbench runs is a privileged change (issue #36, item 6), over real sockets.
// A page on an origin of the default CORS list (any dev server on localhost:3000) may change ordinary
// settings, but not a runner's binary_path/extra_args/env, an MCP server's command/args/env, a repository's
// check commands or the trust in its config: only the workbench's own page, a client with no Origin (the
// CLI, curl) or one with the API key may.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as hostile from '@keel/testkit/fuzz';
import { describe, expect, test } from 'vitest';
import { type Body, eventually, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';

/** The attack of the issue: a runner config that makes "the agent" a shell running the page's command. */
function shellRunner(marker: string) {
  return {
    id: 'pwn',
    name: 'pwn',
    kind: 'acp',
    binary_path: '/bin/sh',
    extra_args: ['-c', `touch ${marker}`],
  };
}

/** A request as the browser sends it from a page at `origin` (Host: the workbench as the page named it). */
async function from(
  port: number,
  origin: string | undefined,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const answer = await hostile.rawRequest(port, {
    method,
    path,
    headers: {
      host: `localhost:${port}`,
      'content-type': 'application/json',
      ...(origin ? { origin } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  let parsed: Body;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    parsed = answer.body;
  }
  return { status: answer.status, body: parsed, error: hostile.errorOf(answer) };
}

const devServer = 'http://localhost:3000';

describe('choosing a program from a listed origin (the defaults: no key)', () => {
  test('the attack of the issue: a /bin/sh runner from localhost:3000 is refused and never runs', async () => {
    await using wb = await startWorkbench();
    const port = hostile.portOf(wb.base);
    const marker = join(tempDir('marker'), 'pwned');
    const repo = repoWithRemote(tempDir('repo'), 'app', { 'a.txt': 'a\n' });

    const planted = await from(port, devServer, 'PUT', '/api/settings', {
      runner_configs: [shellRunner(marker)],
    });
    expect(planted.status).toBe(403);
    expect(planted.error).toMatchObject({
      code: 'PERMISSION_DENIED',
      details: {
        reason: 'privileged_change_from_other_origin',
        origin: devServer,
        fields: ['runner_configs.0.binary_path', 'runner_configs.0.extra_args'],
      },
    });
    // It says what, why, and the three ways to do it on purpose.
    expect(planted.error?.message).toContain('runner_configs.0.binary_path');
    expect(planted.error?.message).toContain("the workbench's own page");
    expect(planted.error?.message).toContain('curl');
    expect(planted.error?.message).toContain('WORKBENCH_AUTH_API_KEY');

    const project = await from(port, devServer, 'POST', '/api/projects', {
      name: 'cats',
      repositories: [{ path: repo.dir, type: 'custom' }],
      default_runner: 'pwn',
    });
    expect(project.status).toBe(422);
    expect(project.error?.code).toBe('UNKNOWN_RUNNER');
    expect((await wb.api('GET', '/api/settings')).body.runner_configs).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  test('the same runner from curl (no Origin) is saved and runs: the refusal is all that stood between', async () => {
    await using wb = await startWorkbench();
    const port = hostile.portOf(wb.base);
    const marker = join(tempDir('marker'), 'on-purpose');
    const repo = repoWithRemote(tempDir('repo'), 'app', { 'a.txt': 'a\n' });
    const saved = await from(port, undefined, 'PUT', '/api/settings', {
      runner_configs: [shellRunner(marker)],
    });
    expect(saved.status).toBe(200);
    // Ordinary requests from the listed origin may then pick that runner: choosing among configs is not
    // choosing a program.
    const project = await from(port, devServer, 'POST', '/api/projects', {
      name: 'cats',
      repositories: [{ path: repo.dir, type: 'custom' }],
      default_runner: 'pwn',
    });
    expect(project.status).toBe(201);
    await eventually(() => existsSync(marker), 'the configured program ran');
  });

  test('ordinary settings from the listed origin still work, also with the runners and servers sent back as they are', async () => {
    await using wb = await startWorkbench();
    const port = hostile.portOf(wb.base);
    const own = `http://localhost:${port}`;
    const runner = {
      id: 'mine',
      name: 'Mine',
      kind: 'claude-code',
      binary_path: '/usr/bin/true',
      extra_args: ['-x'],
    };
    const server = {
      name: 'files',
      command: 'npx',
      args: ['mcp-files'],
      env: { API_TOKEN: 'tok-1', MODE: 'ro' },
    };
    const set = await from(port, own, 'PUT', '/api/settings', {
      runner_configs: [runner],
      mcp_servers: [server],
    });
    expect(set.status).toBe(200);

    expect((await from(port, devServer, 'PUT', '/api/settings', { model: 'from-dev' })).status).toBe(200);
    // What the browser app's form sends: everything, the secret env value as its mask.
    const shown: Body = (await wb.api('GET', '/api/settings')).body;
    expect(shown.mcp_servers[0].env.API_TOKEN).toBe('••••');
    const echoed = await from(port, devServer, 'PUT', '/api/settings', {
      model: 'again',
      default_runner: 'mine',
      runner_configs: shown.runner_configs,
      mcp_servers: shown.mcp_servers,
      git_identity: { name: 'Dev', email: 'dev@example.com' },
    });
    expect(echoed.status, JSON.stringify(echoed.body)).toBe(200);
    expect(echoed.body.model).toBe('again');
    // A runner's name or model, or a server turned off, choose no program either.
    const renamed = await from(port, devServer, 'PUT', '/api/settings', {
      runner_configs: [{ ...runner, name: 'Renamed', model: 'other-model' }],
      mcp_servers: [{ ...server, env: { API_TOKEN: '••••', MODE: 'ro' }, enabled: false }],
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);

    // Every field that chooses a program, one at a time, is refused from there.
    const refused: [string, unknown][] = [
      ['runner_configs.0.binary_path', { runner_configs: [{ ...runner, binary_path: '/bin/sh' }] }],
      ['runner_configs.0.extra_args', { runner_configs: [{ ...runner, extra_args: ['-c', 'id'] }] }],
      [
        'runner_configs.0.env',
        { runner_configs: [{ ...runner, env: { NODE_OPTIONS: '--require /tmp/x' } }] },
      ],
      ['runner_configs.0.kind', { runner_configs: [{ ...runner, kind: 'acp' }] }],
      [
        'runner_configs.0.binary_path',
        { runner_configs: [{ id: 'codex', name: 'c', kind: 'codex', binary_path: '/bin/sh' }] },
      ],
      ['mcp_servers.0.command', { mcp_servers: [{ ...server, command: '/bin/sh' }] }],
      [
        'mcp_servers.0.args',
        { mcp_servers: [{ ...server, env: { API_TOKEN: '••••', MODE: 'ro' }, args: ['-c', 'id'] }] },
      ],
      ['mcp_servers.0.env', { mcp_servers: [{ ...server, env: { API_TOKEN: '••••', MODE: 'rw' } }] }],
      [
        'mcp_servers.0.enabled',
        { mcp_servers: [{ ...server, env: { API_TOKEN: '••••', MODE: 'ro' }, enabled: true }] },
      ],
      [
        'mcp_servers.1.command',
        {
          mcp_servers: [
            { ...server, env: { API_TOKEN: '••••', MODE: 'ro' }, enabled: false },
            { name: 'new', command: 'evil' },
          ],
        },
      ],
    ];
    const before = (await wb.api('GET', '/api/settings')).body;
    for (const [field, patch] of refused) {
      const answer = await from(port, devServer, 'PUT', '/api/settings', patch);
      expect(answer.status, field).toBe(403);
      expect(answer.error?.details?.fields, field).toContain(field);
    }
    expect((await wb.api('GET', '/api/settings')).body).toEqual(before);
  });

  test("a project's new check command or trust in its config: refused from the listed origin, not from its own", async () => {
    await using wb = await startWorkbench();
    const port = hostile.portOf(wb.base);
    const repo = repoWithRemote(tempDir('repo'), 'app', { 'a.txt': 'a\n' });
    const created = await wb.api('POST', '/api/projects', {
      name: 'p',
      repositories: [{ path: repo.dir, type: 'custom' }],
    });
    expect(created.status).toBe(201);
    const path = `/api/projects/${created.body.id}`;
    const checks = { app: [{ name: 'test', command: 'touch /tmp/keel-check-pwned' }] };

    const planted = await from(port, devServer, 'PUT', path, { checks });
    expect(planted.status).toBe(403);
    expect(planted.error).toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { reason: 'privileged_change_from_other_origin', fields: ['checks.app.0.command'] },
    });
    const trusted = await from(port, devServer, 'PUT', path, { trust_repository_config: true });
    expect(trusted.error?.details?.fields).toEqual(['trust_repository_config']);
    expect((await wb.api('GET', path)).body).toMatchObject({ trust_repository_config: false });

    // From its own page both pass; then the listed origin may send them back, rename them, remove them.
    expect(
      (await from(port, `http://localhost:${port}`, 'PUT', path, { checks, trust_repository_config: true }))
        .status,
    ).toBe(200);
    const renamed = { app: [{ name: 'renamed', command: 'touch /tmp/keel-check-pwned', timeout_ms: 5000 }] };
    expect(
      (
        await from(port, devServer, 'PUT', path, {
          checks: renamed,
          trust_repository_config: true,
          name: 'q',
        })
      ).status,
    ).toBe(200);
    expect(
      (await from(port, devServer, 'PUT', path, { checks: { app: [] }, trust_repository_config: false }))
        .status,
    ).toBe(200);
    expect((await from(port, devServer, 'PUT', path, { description: 'ordinary' })).status).toBe(200);
  });
});

describe('choosing a program with an API key', () => {
  test('a listed origin with the right key may; without it the guard refuses first (401)', async () => {
    await using wb = await startWorkbench([], {
      configure: false,
      env: { WORKBENCH_AUTH_API_KEY: 'the-long-key-0123456789' },
    });
    const port = hostile.portOf(wb.base);
    const marker = join(tempDir('marker'), 'keyed');
    const patch = { runner_configs: [shellRunner(marker)] };
    expect((await from(port, devServer, 'PUT', '/api/settings', patch)).status).toBe(401);
    const keyed = await from(port, devServer, 'PUT', '/api/settings', patch, {
      authorization: 'Bearer the-long-key-0123456789',
    });
    expect(keyed.status).toBe(200);
    expect(keyed.body.runner_configs[0].binary_path).toBe('/bin/sh');
  });
});
