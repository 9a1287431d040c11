import { describe, expect, it } from 'vitest';
import {
  agentEnvOf,
  defaultTimeoutMs,
  mcpServersOf,
  timeoutOf,
} from '../../../src/runners/acp/acp-request.ts';
import type { RunnerRequest } from '../../../src/runners/index.ts';

function request(extra: Partial<RunnerRequest> = {}, env: Record<string, string> = {}): RunnerRequest {
  return {
    prompt: 'p',
    workdir: '/tmp',
    model: { model: 'm' },
    mcpServers: [],
    skillDirs: [],
    config: { id: 'acp', name: 'ACP', kind: 'acp', extra_args: [], env },
    signal: new AbortController().signal,
    ...extra,
  };
}

describe('acp request helpers', () => {
  it('passes only enabled MCP servers, env as a name/value list, a bare command made absolute', async () => {
    const servers = await mcpServersOf(
      request({
        mcpServers: [
          { name: 'one', command: 'sh', args: ['-c', 'true'], env: { TOKEN: 't' }, enabled: true },
          { name: 'off', command: 'sh', args: [], env: {}, enabled: false },
          { name: 'gone', command: 'no-such-command-xyz', args: [], env: {}, enabled: true },
        ],
      }),
      { PATH: '/usr/bin:/bin' },
    );
    expect(servers).toEqual([
      {
        name: 'one',
        command: expect.stringMatching(/^\/.*\/sh$/),
        args: ['-c', 'true'],
        env: [{ name: 'TOKEN', value: 't' }],
      },
      { name: 'gone', command: 'no-such-command-xyz', args: [], env: [] },
    ]);
  });

  it('takes the timeout from the options, else KEEL_ACP_TIMEOUT_MS, else 30 minutes', () => {
    expect(defaultTimeoutMs).toBe(30 * 60_000);
    expect(timeoutOf({}, request())).toBe(defaultTimeoutMs);
    expect(timeoutOf({}, request({}, { KEEL_ACP_TIMEOUT_MS: '5000' }))).toBe(5_000);
    expect(timeoutOf({ env: { KEEL_ACP_TIMEOUT_MS: '7000' } }, request())).toBe(7_000);
    expect(timeoutOf({ timeoutMs: 9_000 }, request({}, { KEEL_ACP_TIMEOUT_MS: '5000' }))).toBe(9_000);
    expect(timeoutOf({}, request({}, { KEEL_ACP_TIMEOUT_MS: 'soon' }))).toBe(defaultTimeoutMs);
  });

  it("routes opencode's edits and commands to the permission policy unless the config decides", () => {
    const asked = agentEnvOf({ env: { PATH: '/bin' } }, request(), '/x/node_modules/.bin/opencode');
    expect(JSON.parse(asked.OPENCODE_PERMISSION ?? '{}')).toMatchObject({ edit: 'ask', bash: 'ask' });
    const chosen = agentEnvOf(
      { env: {} },
      request({}, { OPENCODE_PERMISSION: '{"edit":"deny"}' }),
      'opencode',
    );
    expect(chosen.OPENCODE_PERMISSION).toBe('{"edit":"deny"}');
    expect(agentEnvOf({ env: {} }, request(), '/usr/bin/other-agent').OPENCODE_PERMISSION).toBeUndefined();
  });
});

describe('the ACP agent environment', () => {
  const service = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/u',
    LANG: 'C.UTF-8',
    RUNTIME_HOME: '/data/runtime',
    WORKBENCH_HOME: '/data/workbench',
    RUNTIME_AUTH_API_KEY: 'secret-runtime',
    RUNTIME_MODEL_API_KEY: 'secret-service-model-key',
    WORKBENCH_AUTH_API_KEY: 'secret-workbench',
    GITHUB_TOKEN: 'secret-github',
  };

  it('a third-party agent: the minimal part of the service environment, the config env on top', () => {
    const env = agentEnvOf({ env: service }, request({}, { OPENAI_API_KEY: 'mine' }), '/usr/bin/other-agent');
    expect(env).toMatchObject({
      PATH: '/usr/bin:/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      OPENAI_API_KEY: 'mine',
    });
    for (const name of [
      'RUNTIME_HOME',
      'WORKBENCH_HOME',
      'RUNTIME_AUTH_API_KEY',
      'WORKBENCH_AUTH_API_KEY',
      'GITHUB_TOKEN',
    ])
      expect(env[name], name).toBeUndefined();
  });

  it("keel acp: Keel's own paths and the workbench's model, never the service's keys", () => {
    const model = { model: 'm', baseUrl: 'http://model.test/v1', apiKey: 'sk-workbench' };
    const env = agentEnvOf({ env: service }, request({ model }), '/x/node_modules/.bin/keel');
    expect(env).toMatchObject({
      RUNTIME_HOME: '/data/runtime',
      WORKBENCH_HOME: '/data/workbench',
      RUNTIME_MODEL: 'm',
      RUNTIME_MODEL_BASE_URL: 'http://model.test/v1',
      RUNTIME_MODEL_API_KEY: 'sk-workbench',
    });
    for (const name of ['RUNTIME_AUTH_API_KEY', 'WORKBENCH_AUTH_API_KEY', 'GITHUB_TOKEN'])
      expect(env[name], name).toBeUndefined();
    // No key in the settings: none at all, not the service's own.
    const keyless = agentEnvOf({ env: service }, request({ model: { model: 'm' } }), 'keel');
    expect(keyless.RUNTIME_MODEL_API_KEY).toBeUndefined();
  });
});
