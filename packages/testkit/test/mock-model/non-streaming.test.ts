import { afterEach, describe, expect, it } from 'vitest';
import type { MockModel } from '../../src/index.ts';
import { startMockModel } from '../../src/index.ts';
import { postChat, readJson } from '../helpers.ts';

describe('non-streaming chat completions and other routes', () => {
  let server: MockModel;
  afterEach(() => server.close());

  it('answers a chat.completion with content, reasoning, tool calls and usage', async () => {
    server = await startMockModel({
      script: [
        {
          reasoning: 'Need the file.',
          text: 'Let me look.',
          toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'a.ts' } }],
        },
      ],
    });
    const response = await postChat(server, {});
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body).toMatchObject({ object: 'chat.completion', model: 'mock-model' });
    expect(body.choices[0]).toEqual({
      index: 0,
      logprobs: null,
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: 'Let me look.',
        refusal: null,
        reasoning_content: 'Need the file.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
        ],
      },
    });
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
    expect(body.usage.completion_tokens).toBeGreaterThan(0);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  it('uses scripted usage and null content for a tool-call-only reply', async () => {
    server = await startMockModel({
      script: [
        { toolCalls: [{ name: 'noop', arguments: '{' }], usage: { prompt_tokens: 7, completion_tokens: 2 } },
      ],
    });
    const body = await readJson(await postChat(server, {}));
    expect(body.choices[0].message.content).toBeNull();
    expect(body.choices[0].message.tool_calls[0].function.arguments).toBe('{');
    expect(body.usage).toEqual({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
  });

  it('lists the configured models', async () => {
    server = await startMockModel({ models: ['small', 'large'] });
    const response = await fetch(`${server.url}/models`);
    const body = await readJson(response);
    expect(body.object).toBe('list');
    expect(body.data.map((model: { id: string }) => model.id)).toEqual(['small', 'large']);
    expect((await fetch(`${server.url}/models/large`)).status).toBe(200);
    expect((await fetch(`${server.url}/models/missing`)).status).toBe(404);
  });

  it('lists mock-model by default', async () => {
    server = await startMockModel();
    const body = await readJson(await fetch(`${server.url}/models`));
    expect(body.data).toEqual([expect.objectContaining({ id: 'mock-model', object: 'model' })]);
  });

  it('answers unknown paths with a 404 in OpenAI error shape', async () => {
    server = await startMockModel();
    const response = await fetch(`${server.url}/embeddings`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    const body = await readJson(response);
    expect(body.error).toEqual({
      message: 'Invalid URL (POST /v1/embeddings)',
      type: 'invalid_request_error',
      param: null,
      code: 'unknown_url',
    });
  });

  it('rejects a wrong method and a non-JSON body with OpenAI-shaped errors', async () => {
    server = await startMockModel({ script: [{ text: 'unused' }] });
    const wrongMethod = await fetch(`${server.url}/chat/completions`);
    expect(wrongMethod.status).toBe(405);
    expect((await readJson(wrongMethod)).error.message).toMatch(/use POST/);
    const badJson = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: 'not json' });
    expect(badJson.status).toBe(400);
    expect((await readJson(badJson)).error.type).toBe('invalid_request_error');
    expect(server.remaining).toBe(1);
  });
});
