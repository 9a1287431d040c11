import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startMockModel } from '../../src/index.ts';

// Each profile's server lists its models and answers its own discovery endpoints as the server does
// (src/mock-model/discovery-routes.ts cites the docs or source of each shape).

/** Every body these endpoints answer, as one loose type: the assertions, not this type, check what is there. */
type Body = {
  data: Array<Record<string, unknown>>;
  models: Array<{ name: string }>;
  model_info: Record<string, unknown>;
  default_generation_settings: { n_ctx: number };
  choices: [{ message: { content: string } }];
};

const json = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as Body,
});
const post = (url: string, body: unknown) => fetch(url, { method: 'POST', body: JSON.stringify(body) });

describe('discovery endpoints of each profile', () => {
  it('GET /v1/models: each server its own entry', async () => {
    const entry = async (profile: Parameters<typeof startMockModel>[0]) => {
      await using server = await startMockModel({ ...profile, models: ['m'] });
      return (await json(await fetch(`${server.url}/models`))).body.data[0];
    };
    expect(await entry({})).toMatchObject({ id: 'm', object: 'model', owned_by: 'keel-testkit' });
    expect(await entry({ profile: 'vllm-hermes' })).toMatchObject({
      owned_by: 'vllm',
      root: 'm',
      max_model_len: 32768,
    });
    expect(await entry({ profile: 'llamacpp' })).toMatchObject({
      owned_by: 'llamacpp',
      meta: { n_ctx_train: 40960 },
    });
    expect(await entry({ profile: 'lmstudio' })).toEqual({
      id: 'm',
      object: 'model',
      owned_by: 'organization_owner',
    });
    expect(await entry({ profile: 'ollama' })).toMatchObject({ owned_by: 'library' });
    expect(await entry({ profile: 'deepseek' })).toEqual({ id: 'm', object: 'model', owned_by: 'deepseek' });
  });

  it("llama.cpp's /props and LM Studio's /api/v0/models give the context window", async () => {
    await using llama = await startMockModel({ profile: 'llamacpp', models: ['q.gguf'] });
    const props = await json(await fetch(`${llama.baseUrl}/props`));
    expect(props.body).toMatchObject({ default_generation_settings: { n_ctx: 8192 }, total_slots: 1 });

    await using lmstudio = await startMockModel({ profile: 'lmstudio', models: ['qwen/qwen3-8b'] });
    const native = await json(await fetch(`${lmstudio.baseUrl}/api/v0/models`));
    expect(native.body.data).toEqual([
      expect.objectContaining({ id: 'qwen/qwen3-8b', type: 'llm', max_context_length: 65536 }),
    ]);
    // Other servers have neither: a 404, as any unknown path.
    expect((await fetch(`${lmstudio.baseUrl}/props`)).status).toBe(404);
  });

  it('Ollama: /api/tags, /api/show with capabilities, a default model without tools that it refuses tools for', async () => {
    await using server = await startMockModel({ profile: 'ollama', script: [{ text: 'hi' }] });
    const tags = await json(await fetch(`${server.baseUrl}/api/tags`));
    expect(tags.body.models.map((model) => model.name)).toEqual(['mock-model', 'gemma3:1b']);
    expect(tags.body.models[0]).toMatchObject({ model: 'mock-model', details: { format: 'gguf' } });

    const shown = await json(await post(`${server.baseUrl}/api/show`, { model: 'mock-model' }));
    expect(shown.body).toMatchObject({
      model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': 131072 },
      capabilities: ['completion', 'tools'],
    });
    const gemma = await json(await post(`${server.baseUrl}/api/show`, { name: 'gemma3:1b' }));
    expect(gemma.body).toMatchObject({
      model_info: { 'gemma3.context_length': 32768 },
      capabilities: ['completion', 'vision'],
    });
    expect(await json(await post(`${server.baseUrl}/api/show`, { model: 'nope' }))).toEqual({
      status: 404,
      body: { error: "model 'nope' not found" },
    });
    expect((await fetch(`${server.baseUrl}/api/show`)).status).toBe(405);

    const chat = (body: object) =>
      post(`${server.url}/chat/completions`, { messages: [{ role: 'user', content: 'x' }], ...body });
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];
    const refused = await json(await chat({ model: 'gemma3:1b', tools }));
    expect(refused).toEqual({
      status: 400,
      body: {
        error: {
          message: 'registry.ollama.ai/library/gemma3:1b does not support tools',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    });
    // Refused before the script: its reply answers the same model without tools.
    const answered = await json(await chat({ model: 'gemma3:1b' }));
    expect(answered.body.choices[0].message.content).toBe('hi');
  });

  it('Ollama before capabilities (ollama-legacy): /api/show without them; models given are listed as given', async () => {
    await using server = await startMockModel({ profile: 'ollama-legacy', models: ['llama3.1:8b'] });
    const shown = await json(await post(`${server.baseUrl}/api/show`, { model: 'llama3.1:8b' }));
    expect(shown.body.model_info['qwen2.context_length']).toBe(131072);
    expect(shown.body).not.toHaveProperty('capabilities');
    const tags = await json(await fetch(`${server.baseUrl}/api/tags`));
    expect(tags.body.models.map((model) => model.name)).toEqual(['llama3.1:8b']);
  });

  it('keel-mock-model --profile serves them', async () => {
    const bin = fileURLToPath(new URL('../../bin/keel-mock-model.js', import.meta.url));
    const child = spawn(process.execPath, [bin, '--profile', 'llamacpp'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const url = line.replace('Mock model listening on ', '').replace(/\/v1$/, '');
      expect((await json(await fetch(`${url}/props`))).body.default_generation_settings.n_ctx).toBe(8192);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
