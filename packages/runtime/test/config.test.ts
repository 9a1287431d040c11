import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig, readEnv } from '../src/config/index.ts';
import { resolveModelSettings } from '../src/config/model-settings.ts';

describe('model settings', () => {
  const env = readEnv({});
  test('the key comes from RUNTIME_MODEL_API_KEY first, then the request, then the caller', () => {
    const withEnv = readEnv({ RUNTIME_MODEL_API_KEY: 'from-env' });
    expect(
      resolveModelSettings({ model: 'm', model_api_key: 'req' }, { model_api_key: 'caller' }, {}, withEnv)
        .apiKey,
    ).toBe('from-env');
    expect(
      resolveModelSettings({ model: 'm', model_api_key: 'req' }, { model_api_key: 'caller' }, {}, env).apiKey,
    ).toBe('req');
    expect(resolveModelSettings({ model: 'm' }, { model_api_key: 'caller' }, {}, env).apiKey).toBe('caller');
  });

  test("the environment's and caller's keys go only to the configured endpoint", () => {
    const withEnv = readEnv({ RUNTIME_MODEL_API_KEY: 'from-env', RUNTIME_MODEL_BASE_URL: 'http://env/v1' });
    const caller = { model_api_key: 'caller' };
    const key = (request: object, from = withEnv, by: object = caller, config = {}) =>
      resolveModelSettings({ model: 'm', ...request }, by, config, from).apiKey;
    // The configured endpoint, named again by the request (any trailing slash, host case) or not at all.
    expect(key({})).toBe('from-env');
    expect(key({ model_base_url: 'http://ENV/v1/' })).toBe('from-env');
    const urlOnly = readEnv({ RUNTIME_MODEL_BASE_URL: 'http://env/v1' });
    expect(key({ model_base_url: 'http://env/v1' }, urlOnly)).toBe('caller');
    // Another endpoint: the request's own key, or none.
    expect(key({ model_base_url: 'https://evil.example/v1' })).toBe('no-key');
    expect(key({ model_base_url: 'https://evil.example/v1' }, urlOnly)).toBe('no-key');
    expect(key({ model_base_url: 'https://evil.example/v1', model_api_key: 'req' })).toBe('req');
    // What is configured: the caller's URL, then the config files', then the environment's, then the default.
    expect(
      key({ model_base_url: 'http://caller/v1' }, withEnv, { ...caller, model_base_url: 'http://caller/v1' }),
    ).toBe('from-env');
    expect(
      key({ model_base_url: 'http://env/v1' }, withEnv, { ...caller, model_base_url: 'http://caller/v1' }),
    ).toBe('no-key');
    expect(
      key({ model_base_url: 'http://file/v1' }, withEnv, caller, { model_base_url: 'http://file/v1' }),
    ).toBe('from-env');
    const noUrl = readEnv({ RUNTIME_MODEL_API_KEY: 'from-env' });
    expect(key({ model_base_url: 'https://api.openai.com/v1' }, noUrl)).toBe('from-env');
    expect(key({ model_base_url: 'http://127.0.0.1:1/v1' }, noUrl)).toBe('no-key');
  });

  test('thinking settings: request, then caller, then config, then environment', () => {
    const withEnv = readEnv({ RUNTIME_ENABLE_THINKING: 'true', RUNTIME_THINKING_BUDGET: '100' });
    const base = { model: 'm', model_base_url: 'http://local/v1' };
    expect(resolveModelSettings(base, {}, {}, withEnv)).toMatchObject({
      enableThinking: true,
      thinkingBudget: 100,
    });
    const config = { enable_thinking: false, thinking_budget: 200 };
    expect(resolveModelSettings(base, {}, config, withEnv)).toMatchObject({
      enableThinking: false,
      thinkingBudget: 200,
    });
    expect(
      resolveModelSettings({ ...base, thinking_budget: 300 }, { enable_thinking: true }, config, env),
    ).toMatchObject({ enableThinking: true, thinkingBudget: 300 });
  });

  test('model and base URL: request, then caller, then config, then environment', () => {
    const withEnv = readEnv({ RUNTIME_MODEL: 'env-model', RUNTIME_MODEL_BASE_URL: 'http://env/v1' });
    const config = { model: 'config-model', model_base_url: 'http://config/v1' };
    expect(resolveModelSettings({}, {}, {}, withEnv)).toMatchObject({
      model: 'env-model',
      baseURL: 'http://env/v1',
    });
    expect(resolveModelSettings({}, {}, config, withEnv)).toMatchObject({
      model: 'config-model',
      baseURL: 'http://config/v1',
    });
    expect(resolveModelSettings({}, { model: 'caller' }, config, withEnv)).toMatchObject({ model: 'caller' });
    expect(resolveModelSettings({ model: 'req' }, { model: 'caller' }, config, withEnv)).toMatchObject({
      model: 'req',
    });
  });

  test('missing model or key is a clear error naming the option and the variable', () => {
    expect(() => resolveModelSettings({}, {}, {}, env)).toThrow(/RUNTIME_MODEL/);
    expect(() => resolveModelSettings({ model: 'gpt' }, {}, {}, env)).toThrow(/RUNTIME_MODEL_API_KEY/);
    // A local endpoint needs no key.
    expect(
      resolveModelSettings({ model: 'm', model_base_url: 'http://127.0.0.1:1/v1' }, {}, {}, env).apiKey,
    ).toBe('no-key');
  });
});

describe('config files', () => {
  test('the project file of a trusted folder overrides the global one key by key', async () => {
    const home = await mkdtemp(join(tmpdir(), 'keel-cfg-'));
    const project = await mkdtemp(join(tmpdir(), 'keel-proj-'));
    await writeFile(
      join(home, 'config.json'),
      JSON.stringify({ model: 'global', security: { allowed_commands: ['ls'], strict_read_boundary: true } }),
    );
    await mkdir(join(project, '.runtime'));
    await writeFile(
      join(project, '.runtime', 'config.json'),
      JSON.stringify({ security: { strict_read_boundary: false } }),
    );
    // `security` applies from a project file only in a trusted folder (config/trust-keys.ts).
    expect(loadConfig(home, project, true)).toEqual({
      model: 'global',
      security: { allowed_commands: ['ls'], strict_read_boundary: false },
    });
  });

  test('a broken file is a ConfigError naming it', async () => {
    const home = await mkdtemp(join(tmpdir(), 'keel-cfg-'));
    await writeFile(join(home, 'config.json'), '{ not json');
    expect(() => loadConfig(home, home)).toThrow(/config\.json is not valid JSON/);
    await writeFile(join(home, 'config.json'), JSON.stringify({ circuit_breaker: { max_tokens: 'lots' } }));
    expect(() => loadConfig(home, home)).toThrow(/circuit_breaker\.max_tokens/);
    await writeFile(
      join(home, 'config.json'),
      JSON.stringify({ pricing: { 'my-model': { input_per_million: -1, output_per_million: 2 } } }),
    );
    expect(() => loadConfig(home, home)).toThrow(/pricing\.my-model\.input_per_million/);
  });
});

describe('model_profile from RUNTIME_MODEL_PROFILE', () => {
  const settings = (config: { model_profile?: 'vllm' }, variables: NodeJS.ProcessEnv) =>
    resolveModelSettings(
      { model: 'm' },
      { model_base_url: 'http://127.0.0.1:9/v1' },
      config,
      readEnv(variables),
    );

  test('the variable chooses the profile below the config file', () => {
    expect(settings({}, { RUNTIME_MODEL_PROFILE: ' llamacpp ' }).profile).toBe('llamacpp');
    expect(settings({ model_profile: 'vllm' }, { RUNTIME_MODEL_PROFILE: 'llamacpp' }).profile).toBe('vllm');
    expect(settings({}, {}).profile).toBeUndefined();
  });

  test('an unknown name is a CONFIG_ERROR that lists the names', () => {
    expect(() => settings({}, { RUNTIME_MODEL_PROFILE: 'olama' })).toThrow(
      /RUNTIME_MODEL_PROFILE must be one of generic, .*ollama.*, got "olama"/,
    );
  });
});
