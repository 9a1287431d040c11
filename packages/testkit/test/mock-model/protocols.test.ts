// What the four protocols share: one script queue, request recording, drops, and the matchers' view.
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockModel } from '../../src/index.ts';
import { startMockModel } from '../../src/index.ts';
import { lastAnthropicMessage } from '../../src/mock-model/anthropic-handler.ts';
import { lastGeminiMessage } from '../../src/mock-model/gemini-handler.ts';
import { lastResponsesMessage } from '../../src/mock-model/responses-handler.ts';
import { postChat } from '../helpers.ts';
import { postJson } from '../sse-events.ts';

describe('one mock model, four protocols', () => {
  let server: MockModel;
  afterEach(() => server.close());

  it('serves one script to every protocol in order and records each request with its protocol', async () => {
    server = await startMockModel({
      script: [{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'four' }],
    });
    expect(server.baseUrl).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.url).toBe(`${server.baseUrl}/v1`);
    const openai = new OpenAI({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });

    const chat = await (await postChat(server, {})).json();
    const responses = await openai.responses.create({ model: 'mock-model', input: 'hi' });
    const anthropic = await postJson(server.baseUrl, '/v1/messages', {
      model: 'claude-mock',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const gemini = await postJson(server.baseUrl, '/v1beta/models/gemini-mock:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    });
    expect(chat).toMatchObject({ choices: [{ message: { content: 'one' } }] });
    expect(responses.output_text).toBe('two');
    expect(await anthropic.json()).toMatchObject({ content: [{ type: 'text', text: 'three' }] });
    expect(await gemini.json()).toMatchObject({ candidates: [{ content: { parts: [{ text: 'four' }] } }] });
    expect(server.remaining).toBe(0);
    expect(server.requests.map((request) => request.protocol)).toEqual([
      'chat',
      'responses',
      'anthropic',
      'gemini',
    ]);
    expect(server.chatRequests).toHaveLength(1);
  });

  it('answers unknown paths and wrong methods in the shape of the protocol the path belongs to', async () => {
    server = await startMockModel();
    const unknown = await fetch(`${server.baseUrl}/nowhere`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'unknown_url' } });
    const getMessages = await fetch(`${server.baseUrl}/v1/messages`);
    expect(getMessages.status).toBe(405);
    expect(await getMessages.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
    const geminiUnknown = await postJson(server.baseUrl, '/v1beta/models/gemini-mock:embedContent', {});
    expect(geminiUnknown.status).toBe(404);
    expect(await geminiUnknown.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    const notJson = await fetch(`${server.url}/responses`, { method: 'POST', body: 'not json' });
    expect(notJson.status).toBe(400);
    expect(server.requests.map((request) => request.protocol)).toEqual([
      undefined,
      'anthropic',
      'gemini',
      'responses',
    ]);
  });

  it('drops a stream midway and waits scripted delays in every protocol', async () => {
    server = await startMockModel({
      script: [
        { text: 'This Anthropic stream is cut off halfway through.', drop: 'mid-stream' },
        { text: 'Slow Gemini stream.', delayMs: 20, chunkDelayMs: 5 },
        { drop: 'before-response' },
      ],
    });
    const anthropic = await postJson(server.baseUrl, '/v1/messages', {
      model: 'claude-mock',
      max_tokens: 10,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(anthropic.status).toBe(200);
    await expect(anthropic.text()).rejects.toThrow();

    const started = Date.now();
    const gemini = await postJson(
      server.baseUrl,
      '/v1beta/models/gemini-mock:streamGenerateContent?alt=sse',
      {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      },
    );
    expect(await gemini.text()).toContain('Slow G');
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);

    await expect(
      fetch(`${server.url}/responses`, {
        method: 'POST',
        body: JSON.stringify({ input: 'hi', stream: true }),
      }),
    ).rejects.toThrow();
  });
});

describe("each protocol's last message, as `when` sees it", () => {
  it('Responses: string input, message roles (developer is system), tool outputs and calls', () => {
    expect(lastResponsesMessage({ input: 'hello' })).toEqual({ role: 'user', text: 'hello' });
    expect(
      lastResponsesMessage({
        input: [{ role: 'developer', content: [{ type: 'input_text', text: 'rules' }] }],
      }),
    ).toEqual({ role: 'system', text: 'rules' });
    expect(
      lastResponsesMessage({
        input: [{ type: 'function_call_output', call_id: 'c', output: 'result text' }],
      }),
    ).toEqual({ role: 'tool', text: 'result text' });
    expect(
      lastResponsesMessage({ input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }] }),
    ).toEqual({ role: 'assistant', text: '' });
    expect(lastResponsesMessage({})).toEqual({ role: undefined, text: '' });
  });

  it('Anthropic: string or block content; a tool_result block makes it a tool message', () => {
    expect(lastAnthropicMessage({ messages: [{ role: 'user', content: 'hi' }] })).toEqual({
      role: 'user',
      text: 'hi',
    });
    expect(
      lastAnthropicMessage({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 't', content: 'file body' },
              { type: 'text', text: ' and a note' },
            ],
          },
        ],
      }),
    ).toEqual({ role: 'tool', text: 'file body and a note' });
    expect(
      lastAnthropicMessage({
        messages: [{ role: 'assistant', content: [{ type: 'text', text: 'ok' }, { type: 'tool_use' }] }],
      }),
    ).toEqual({ role: 'assistant', text: 'ok' });
  });

  it('Gemini: model is assistant; a functionResponse part makes it a tool message', () => {
    expect(lastGeminiMessage({ contents: [{ role: 'model', parts: [{ text: 'sure' }] }] })).toEqual({
      role: 'assistant',
      text: 'sure',
    });
    expect(
      lastGeminiMessage({
        contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: { result: 42 } } }] }],
      }),
    ).toEqual({ role: 'tool', text: '{"result":42}' });
  });
});
