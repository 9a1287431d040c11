import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MockModelOptions, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { KeelError } from '../../src/errors/index.ts';
import { listModels } from '../../src/model/index.ts';

// Model discovery against each profile of the scripted model server: it serves each server's model list
// and its own discovery endpoints as the server's docs or source show them
// (packages/testkit/src/mock-model/discovery-routes.ts).

type Profile = NonNullable<MockModelOptions['profile']>;

const listings: Array<{ profile: Profile; models: string[]; server: string; listed: object[] }> = [
  { profile: 'openai', models: ['gpt-4.1'], server: 'other', listed: [{ id: 'gpt-4.1' }] },
  { profile: 'deepseek', models: ['deepseek-chat'], server: 'other', listed: [{ id: 'deepseek-chat' }] },
  // vLLM: `max_model_len` on each model.
  {
    profile: 'vllm-hermes',
    models: ['Qwen/Qwen3-8B'],
    server: 'vllm',
    listed: [{ id: 'Qwen/Qwen3-8B', contextLength: 32768 }],
  },
  // llama.cpp: the window it serves (`/props` n_ctx 8192), not the model's n_ctx_train (40960).
  {
    profile: 'llamacpp',
    models: ['qwen3-8b.gguf'],
    server: 'llamacpp',
    listed: [{ id: 'qwen3-8b.gguf', contextLength: 8192 }],
  },
  // LM Studio: `max_context_length` from its own /api/v0/models.
  {
    profile: 'lmstudio',
    models: ['qwen/qwen3-8b'],
    server: 'lmstudio',
    listed: [{ id: 'qwen/qwen3-8b', contextLength: 65536 }],
  },
  // Ollama: /api/show's `<arch>.context_length` and `capabilities`.
  {
    profile: 'ollama',
    models: ['qwen2.5-coder:7b', 'gemma3:1b'],
    server: 'ollama',
    listed: [
      { id: 'qwen2.5-coder:7b', contextLength: 131072, tools: true },
      { id: 'gemma3:1b', contextLength: 32768, tools: false },
    ],
  },
  // Ollama before capabilities: tool support unknown, not false.
  {
    profile: 'ollama-legacy',
    models: ['llama3.1:8b'],
    server: 'ollama',
    listed: [{ id: 'llama3.1:8b', contextLength: 131072 }],
  },
];

describe('listModels', () => {
  test.each(listings)(
    '$profile: the models, with the context length and tools where the server says',
    async (row) => {
      await using server = await startMockModel({ profile: row.profile, models: row.models });
      const listing = await listModels({ baseURL: server.url, apiKey: 'no-key', model: row.models[0] });
      expect(listing).toEqual({ server: row.server, models: row.listed });
    },
  );

  test('the key goes with every request to the server; Ollama is asked about the configured model first', async () => {
    await using server = await startMockModel({ profile: 'ollama', models: ['a:1', 'b:2', 'c:3'] });
    await listModels({ baseURL: server.url, apiKey: 'sk-local', model: 'c:3' });
    const shows = server.requests.filter((request) => request.path === '/api/show');
    expect(shows.map((request) => request.body)).toEqual([
      { model: 'c:3' },
      { model: 'a:1' },
      { model: 'b:2' },
    ]);
    for (const request of server.requests) expect(request.headers.authorization).toBe('Bearer sk-local');
  });

  test("Ollama's address without /v1: a MODEL_ERROR naming the address to use", async () => {
    await using server = await startMockModel({ profile: 'ollama' });
    const error = await listModels({ baseURL: server.baseUrl, apiKey: 'no-key' }).catch((caught) => caught);
    expect(KeelError.is(error) && error.code).toBe('MODEL_ERROR');
    expect(error.message).toBe(
      `The model endpoint ${server.baseUrl} has no GET /models (HTTP 404): this is Ollama's own API: its ` +
        `OpenAI-compatible one is at ${server.baseUrl}/v1, set model_base_url (RUNTIME_MODEL_BASE_URL, --model-base-url) to it.`,
    );
    expect(error.details).toMatchObject({ reason: 'no_model_list', status: 404, server: 'ollama' });
  });

  test('another 404, a refused key, a body that is no list, nothing listening: each a KeelError in words', async () => {
    await using endpoint = await tinyServer((path, key) =>
      path === '/keyed/models' && key !== 'Bearer good'
        ? [401, { error: { message: 'Incorrect API key' } }]
        : path === '/page/models'
          ? [200, '<html>hello</html>']
          : [404, { error: 'not found' }],
    );
    const failure = (baseURL: string, apiKey = 'no-key') =>
      listModels({ baseURL, apiKey }).then(
        () => {
          throw new Error(`${baseURL}: listed`);
        },
        (caught: KeelError) => caught,
      );

    const missing = await failure(`${endpoint.url}/nothing`);
    expect(missing.message).toContain('has no GET /models (HTTP 404): check that model_base_url');
    const refused = await failure(`${endpoint.url}/keyed`, 'bad');
    expect(refused.code).toBe('AUTHENTICATION_FAILED');
    expect(refused.message).toContain('refused the request (HTTP 401)');
    expect(refused.message).not.toContain('bad');
    const page = await failure(`${endpoint.url}/page`);
    expect(page.details).toMatchObject({ reason: 'not_a_model_list' });
    expect(page.message).toContain('answered GET /models, but not with a list of models');

    // A port the system gave out and that closed again, never connected to: nothing listens there.
    const closed = await tinyServer(() => [200, {}]);
    await closed[Symbol.asyncDispose]();
    const gone = await failure(`${closed.url}/v1`);
    expect(gone.code).toBe('MODEL_ERROR');
    expect(gone.message).toContain(
      `Could not reach the model endpoint ${closed.url}/v1: the connection was refused`,
    );
    expect(gone.details).toMatchObject({ reason: 'refused' });
  });
});

/** A tiny HTTP server answering each path with [status, body] from `answer`. */
async function tinyServer(answer: (path: string, key: string | undefined) => [number, unknown]) {
  const server = createServer((request, response) => {
    const [status, body] = answer(request.url ?? '/', request.headers.authorization);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    response.writeHead(status, {
      'content-type': typeof body === 'string' ? 'text/html' : 'application/json',
    });
    response.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    [Symbol.asyncDispose]() {
      server.closeAllConnections();
      closed ??= new Promise<void>((resolve) => server.close(() => resolve()));
      return closed;
    },
  };
}
