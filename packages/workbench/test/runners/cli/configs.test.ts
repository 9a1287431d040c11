import { parse } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import type { AgentContext } from '../../../src/runners/cli/index.ts';
import {
  codexConfigOf,
  createCliRunners,
  geminiSettingsOf,
  opencodeConfigOf,
  promptArgumentOf,
} from '../../../src/runners/cli/index.ts';
import { runnerKinds } from '../../../src/runners/index.ts';
import { configOf, secretKey } from './harness.ts';

function context(extra: Partial<AgentContext['request']> = {}): AgentContext {
  return {
    request: {
      prompt: 'p',
      workdir: '/w',
      model: { model: 'm"1', baseUrl: 'http://127.0.0.1:9/v1', apiKey: secretKey },
      mcpServers: [
        {
          name: 'odd "name".x',
          command: '/bin/srv',
          args: ['--a="b"', 'line\nbreak'],
          env: { K: 'v\\w' },
          enabled: true,
        },
        { name: 'off', command: 'x', args: [], env: {}, enabled: false },
      ],
      skillDirs: [],
      config: configOf('codex'),
      signal: new AbortController().signal,
      ...extra,
    },
    home: '/h',
    model: 'm"1',
    env: {},
    workdirs: ['/w'],
  };
}

describe('the config files the runners write for their agents', () => {
  test('Codex config.toml: escaped strings, the keel provider, enabled MCP servers only, no key', () => {
    const toml = codexConfigOf(context({ allowedRoots: ['/extra'] }));
    expect(toml).not.toContain(secretKey);
    expect(parse(toml)).toEqual({
      model: 'm"1',
      model_provider: 'keel',
      approval_policy: 'never',
      sandbox_mode: 'workspace-write',
      sandbox_workspace_write: { writable_roots: ['/extra'] },
      model_providers: {
        keel: {
          name: 'Keel',
          base_url: 'http://127.0.0.1:9/v1',
          env_key: 'KEEL_CODEX_API_KEY',
          wire_api: 'responses',
        },
      },
      mcp_servers: {
        'odd "name".x': { command: '/bin/srv', args: ['--a="b"', 'line\nbreak'], env: { K: 'v\\w' } },
      },
    });
    const readOnly = parse(codexConfigOf(context({ readOnly: true, allowedRoots: ['/extra'] })));
    expect(readOnly.sandbox_mode).toBe('read-only');
    expect(readOnly.sandbox_workspace_write).toBeUndefined();
  });

  test('opencode.json: the key is an {env:…} reference, MCP servers are local commands', () => {
    const config = opencodeConfigOf(context());
    expect(JSON.stringify(config)).not.toContain(secretKey);
    expect(config).toMatchObject({
      provider: {
        keel: {
          npm: '@ai-sdk/openai-compatible',
          options: { baseURL: 'http://127.0.0.1:9/v1', apiKey: '{env:KEEL_OPENCODE_API_KEY}' },
          models: { 'm"1': {} },
        },
      },
      model: 'keel/m"1',
      permission: { edit: 'allow', bash: 'allow' },
      mcp: {
        'odd "name".x': {
          type: 'local',
          command: ['/bin/srv', '--a="b"', 'line\nbreak'],
          environment: { K: 'v\\w' },
        },
      },
    });
    expect(opencodeConfigOf(context({ readOnly: true })).permission).toMatchObject({
      edit: 'deny',
      bash: 'deny',
    });
    expect(promptArgumentOf('-x')).toBe(' -x');
  });

  test('Gemini settings.json: API-key auth, no statistics, enabled MCP servers', () => {
    const settings = geminiSettingsOf(context());
    expect(settings).toEqual({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      mcpServers: {
        'odd "name".x': { command: '/bin/srv', args: ['--a="b"', 'line\nbreak'], env: { K: 'v\\w' } },
      },
    });
  });

  test('createCliRunners makes one runner per command-line kind', () => {
    const kinds = createCliRunners({ env: {} }).map((runner) => runner.kind);
    expect(kinds.sort()).toEqual(runnerKinds.filter((kind) => kind !== 'keel' && kind !== 'acp').sort());
  });
});
