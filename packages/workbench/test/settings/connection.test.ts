// Settings honesty: the model base URL is checked when saved, and test-connection says what the endpoint
// answers (never the key), with the key sent only to the base_url it was saved for.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MockModelOptions, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startWorkbench } from '../harness.ts';

/** A tiny endpoint: `/v1/models` needs `Bearer good-key`; `/html/models` answers a web page. */
async function keyedEndpoint() {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    if (request.url === '/html/models') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
      return;
    }
    if (request.headers.authorization !== 'Bearer good-key') {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data: [{ id: 'keyed-model' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the model base URL', () => {
  test('without a scheme (or not http) it is refused with the fix; a good one is saved', async () => {
    await using wb = await startWorkbench([], { configure: false });
    const refused = await wb.api('PUT', '/api/settings', { base_url: 'api.openai.com/v1' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INVALID_PARAMS');
    expect(refused.body.error.message).toContain('base_url');
    expect(refused.body.error.message).toContain('https://api.openai.com/v1');
    const local = await wb.api('PUT', '/api/settings', { base_url: 'localhost:11434/v1' });
    expect(local.status).toBe(400);
    expect(local.body.error.message).toContain('add https://');
    const ftp = await wb.api('PUT', '/api/settings', { base_url: 'ftp://models.example/v1' });
    expect(ftp.status).toBe(400);
    expect(ftp.body.error.message).toContain('use http:// or https://');
    const saved = await wb.api('PUT', '/api/settings', { base_url: 'https://api.openai.com/v1' });
    expect(saved.status).toBe(200);
    expect(saved.body.base_url).toBe('https://api.openai.com/v1');
  });
});

describe('POST /api/settings/test-connection', () => {
  test('lists the models of the saved endpoint (the mock model server)', async () => {
    await using wb = await startWorkbench();
    const tested = await wb.api('POST', '/api/settings/test-connection');
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({
      ok: true,
      base_url: wb.model.url,
      models: ['mock-model'],
      model_found: true,
      model_details: [{ id: 'mock-model' }],
    });
  });

  // Each profile's server lists its models as it does (testkit's discovery-routes.ts): the test answers
  // each model's context window, and for Ollama whether it calls tools.
  const servers: Array<{
    profile: NonNullable<MockModelOptions['profile']>;
    server: string;
    details: object[];
  }> = [
    {
      profile: 'ollama',
      server: 'ollama',
      details: [
        { id: 'mock-model', context_length: 131072, tools: true },
        { id: 'gemma3:1b', context_length: 32768, tools: false },
      ],
    },
    { profile: 'vllm-reasoning', server: 'vllm', details: [{ id: 'mock-model', context_length: 32768 }] },
    { profile: 'llamacpp', server: 'llamacpp', details: [{ id: 'mock-model', context_length: 8192 }] },
    { profile: 'lmstudio', server: 'lmstudio', details: [{ id: 'mock-model', context_length: 65536 }] },
  ];
  test.each(servers)(
    '$profile: the models with their context window',
    async ({ profile, server, details }) => {
      await using wb = await startWorkbench();
      await using local = await startMockModel({ profile });
      const tested = await wb.api('POST', '/api/settings/test-connection', { base_url: local.url });
      expect(tested.body).toEqual({
        ok: true,
        base_url: local.url,
        models: details.map((entry) => (entry as { id: string }).id),
        model_found: true,
        server,
        model_details: details,
      });
      // Another address than the saved one: the saved key went to none of its endpoints.
      for (const request of local.requests) expect(request.headers.authorization).toBeUndefined();
    },
  );

  test("Ollama's own address (no /v1): the answer names the base_url to use", async () => {
    await using wb = await startWorkbench();
    await using local = await startMockModel({ profile: 'ollama' });
    const tested = await wb.api('POST', '/api/settings/test-connection', { base_url: local.baseUrl });
    expect(tested.body).toMatchObject({ ok: false, models: [] });
    expect(tested.body.error.message).toBe(
      `${local.baseUrl}/models is not found (HTTP 404), but ${local.baseUrl} is Ollama's own API: use ${local.baseUrl}/v1 as base_url.`,
    );
  });

  test('a wrong key, an unreachable address, a web page: each said in words naming the URL, no key shown', async () => {
    await using endpoint = await keyedEndpoint();
    await using wb = await startWorkbench([], { configure: false });
    const { api } = wb;
    await api('PUT', '/api/settings', {
      model: 'keyed-model',
      base_url: `${endpoint.url}/v1`,
      api_key: 'bad-key',
    });

    const wrong = (await api('POST', '/api/settings/test-connection')).body;
    expect(wrong).toMatchObject({ ok: false, models: [] });
    expect(wrong.error.message).toContain(`${endpoint.url}/v1/models refused the API key (HTTP 401)`);
    expect(JSON.stringify(wrong)).not.toContain('bad-key');

    // Unsaved values: a good key for the saved address.
    const good = (await api('POST', '/api/settings/test-connection', { api_key: 'good-key' })).body;
    expect(good).toEqual({
      ok: true,
      base_url: `${endpoint.url}/v1`,
      models: ['keyed-model'],
      model_found: true,
      model_details: [{ id: 'keyed-model' }],
    });
    expect(JSON.stringify(good)).not.toContain('good-key');

    const page = (await api('POST', '/api/settings/test-connection', { base_url: `${endpoint.url}/html` }))
      .body;
    expect(page.ok).toBe(false);
    expect(page.error.message).toContain(
      `${endpoint.url}/html/models did not answer like an OpenAI-compatible`,
    );
    // Another address never gets the saved key.
    expect(endpoint.seen.at(-1)?.authorization).toBeUndefined();

    const unreachable = (
      await api('POST', '/api/settings/test-connection', { base_url: 'http://127.0.0.1:1/v1' })
    ).body;
    expect(unreachable.ok).toBe(false);
    expect(unreachable.error.message).toContain('Could not reach http://127.0.0.1:1/v1/models');

    const bad = await api('POST', '/api/settings/test-connection', { base_url: 'api.openai.com/v1' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('base_url');
  });
});
