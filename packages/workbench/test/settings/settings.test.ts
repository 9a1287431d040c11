import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startWorkbench } from '../harness.ts';

describe('settings', () => {
  test('the API key is write-only: stored 0600, never returned, never in a log', async () => {
    await using wb = await startWorkbench([], { configure: false });
    const put = await wb.api('PUT', '/api/settings', {
      model: 'm',
      api_key: 'sk-very-secret',
      github_token: 'ghp_x',
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ model: 'm', api_key_set: true, github_token_set: true });
    const got = await wb.api('GET', '/api/settings');
    expect(JSON.stringify(got.body)).not.toContain('sk-very-secret');
    expect(JSON.stringify(got.body)).not.toContain('ghp_x');
    expect(got.body.api_key).toBeUndefined();
    const secrets = join(wb.home, 'secrets.json');
    expect(statSync(secrets).mode & 0o777).toBe(0o600);
    // Each secret beside the address it is bound to (no base_url: the runner's default endpoint).
    expect(JSON.parse(readFileSync(secrets, 'utf8'))).toEqual({
      api_key: 'sk-very-secret',
      api_key_base_url: null,
      github_token: 'ghp_x',
      github_token_api_url: 'https://api.github.com',
    });
    const cleared = await wb.api('PUT', '/api/settings', { api_key: null });
    expect(cleared.body).toMatchObject({ api_key_set: false, github_token_set: true });
  });

  test('a secrets file that cannot be written leaves the settings as they were; changes at once do not mix', async () => {
    await using wb = await startWorkbench([], { configure: false });
    await wb.api('PUT', '/api/settings', { model: 'm1', api_key: 'sk-one' });
    const secrets = join(wb.home, 'secrets.json');
    // The file is written through `secrets.json.tmp`: a directory there fails the write, whoever runs it.
    mkdirSync(`${secrets}.tmp`);
    const refused = await wb.api('PUT', '/api/settings', { model: 'm2', api_key: 'sk-two' });
    expect(refused.status).toBe(500);
    expect(refused.body.error.code).toBe('STORE_ERROR');
    expect(refused.body.error.message).toContain('secrets file could not be written');
    expect((await wb.api('GET', '/api/settings')).body).toMatchObject({ model: 'm1', api_key_set: true });
    expect(JSON.parse(readFileSync(secrets, 'utf8'))).toMatchObject({ api_key: 'sk-one' });
    rmSync(`${secrets}.tmp`, { recursive: true });

    // Ten changes at once, each of the model and the key together: the row and the file end on the same one.
    const puts = Array.from({ length: 10 }, (_, index) =>
      wb.api('PUT', '/api/settings', { model: `m-${index}`, api_key: `sk-${index}` }),
    );
    expect((await Promise.all(puts)).map((put) => put.status)).toEqual(Array(10).fill(200));
    const { model } = (await wb.api('GET', '/api/settings')).body;
    expect(JSON.parse(readFileSync(secrets, 'utf8')).api_key).toBe(`sk-${model.slice(2)}`);
  });

  test('check lists the missing model; an AI action without one is MODEL_NOT_CONFIGURED', async () => {
    await using wb = await startWorkbench([], { configure: false });
    const check = await wb.api('GET', '/api/settings/check');
    expect(check.status).toBe(200);
    expect(check.body.ready).toBe(false);
    expect(check.body.missing).toEqual(['model']);
    expect(check.body.runners.find((runner: { kind: string }) => runner.kind === 'keel')).toMatchObject({
      usable: true,
    });
    const conversation = await wb.api('POST', '/api/conversations', { title: 'hello' });
    const init = await wb.api('POST', `/api/conversations/${conversation.body.id}/init`);
    expect(init.status).toBe(409);
    expect(init.body.error.code).toBe('MODEL_NOT_CONFIGURED');
    expect(init.body.error.message).toContain('PUT /api/settings');
    await wb.api('PUT', '/api/settings', { model: 'mock-model' });
    expect((await wb.api('GET', '/api/settings/check')).body).toMatchObject({ ready: true, missing: [] });
  });

  test('runner configs, MCP servers and the default runner are checked', async () => {
    await using wb = await startWorkbench([], { configure: false });
    const ok = await wb.api('PUT', '/api/settings', {
      runner_configs: [{ id: 'my-keel', name: 'Mine', kind: 'keel', model: 'other' }],
      default_runner: 'my-keel',
      mcp_servers: [{ name: 'fs', command: 'npx', args: ['x'] }],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.runner_configs[0]).toEqual({
      id: 'my-keel',
      name: 'Mine',
      kind: 'keel',
      model: 'other',
      extra_args: [],
      env: {},
    });
    expect(ok.body.mcp_servers[0]).toEqual({
      name: 'fs',
      command: 'npx',
      args: ['x'],
      env: {},
      enabled: true,
      env_set: {},
    });
    const unknown = await wb.api('PUT', '/api/settings', { default_runner: 'nope' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('UNKNOWN_RUNNER');
    const badKind = await wb.api('PUT', '/api/settings', {
      runner_configs: [{ id: 'x', name: 'x', kind: 'vim' }],
    });
    expect(badKind.status).toBe(400);
    expect(badKind.body.error.code).toBe('INVALID_PARAMS');
  });
  test('git_identity: null by default, saved as a whole, a bad name or email refused naming the field', async () => {
    await using wb = await startWorkbench([], { configure: false });
    expect((await wb.api('GET', '/api/settings')).body.git_identity).toEqual({ name: null, email: null });
    const saved = await wb.api('PUT', '/api/settings', {
      git_identity: { name: ' Ada Lovelace ', email: 'ada@example.com' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.git_identity).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
    // Replaced as a whole: a part left out is null again.
    const nameOnly = await wb.api('PUT', '/api/settings', { git_identity: { name: 'Ada' } });
    expect(nameOnly.body.git_identity).toEqual({ name: 'Ada', email: null });
    for (const [identity, field] of [
      [{ email: 'not an email' }, 'git_identity.email'],
      [{ name: 'Ada <evil>' }, 'git_identity.name'],
      [{ name: 'two\nlines' }, 'git_identity.name'],
      [{ name: '' }, 'git_identity.name'],
      [{ nickname: 'x' }, 'git_identity'],
    ] as const) {
      const refused = await wb.api('PUT', '/api/settings', { git_identity: identity });
      expect(refused.status, JSON.stringify(identity)).toBe(400);
      expect(refused.body.error.code).toBe('INVALID_PARAMS');
      expect(JSON.stringify(refused.body.error), JSON.stringify(identity)).toContain(field);
    }
    expect((await wb.api('GET', '/api/settings')).body.git_identity).toEqual({ name: 'Ada', email: null });
  });
});
