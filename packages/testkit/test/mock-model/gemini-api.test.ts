// The Gemini API (what Gemini CLI speaks), over raw fetch: no Google SDK is installed.
import { afterEach, describe, expect, it } from 'vitest';
import type { MockModel } from '../../src/index.ts';
import { startMockModel } from '../../src/index.ts';
import { postJson, readEvents } from '../sse-events.ts';

type Part = { text?: string; thought?: boolean; functionCall?: { name: string; args: unknown } };
type GenerateResponse = {
  candidates: Array<{ content: { role: string; parts: Part[] }; finishReason?: string; index: number }>;
  usageMetadata?: { promptTokenCount: number; candidatesTokenCount: number; totalTokenCount: number };
  modelVersion: string;
};

const userTurn = (text: string) => ({ role: 'user', parts: [{ text }] });
const generate = (server: MockModel, body: Record<string, unknown>, method = 'generateContent', query = '') =>
  postJson(
    server.baseUrl,
    `/v1beta/models/gemini-mock:${method}${query}`,
    { contents: [userTurn('hi')], ...body },
    { 'x-goog-api-key': 'test-key' },
  );
const stream = (server: MockModel, body: Record<string, unknown>) =>
  generate(server, body, 'streamGenerateContent', '?alt=sse');

describe('the Gemini API (POST /v1beta/models/{model}:generateContent)', () => {
  let server: MockModel;
  afterEach(() => server.close());

  it('answers text with usage metadata, and records the request with its protocol', async () => {
    server = await startMockModel({
      script: [{ text: 'Hello from Gemini.', usage: { prompt_tokens: 9, completion_tokens: 5 } }],
    });
    const response = await generate(server, { systemInstruction: { parts: [{ text: 'Be brief.' }] } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      candidates: [
        {
          content: { role: 'model', parts: [{ text: 'Hello from Gemini.' }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 5, totalTokenCount: 14 },
      modelVersion: 'gemini-mock',
      responseId: expect.any(String),
    });
    expect(server.requests[0]).toMatchObject({
      protocol: 'gemini',
      path: '/v1beta/models/gemini-mock:generateContent',
      body: { systemInstruction: { parts: [{ text: 'Be brief.' }] } },
    });
    expect(server.chatRequests).toHaveLength(0);
  });

  it('streams text as SSE data lines of partial responses; the last has finishReason and usage', async () => {
    server = await startMockModel({ script: [{ text: 'Streamed Gemini text.' }], chunkSize: 6 });
    const response = await stream(server, {});
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const chunks = (await readEvents(response)).map((event) => event.data as GenerateResponse);
    expect(chunks.length).toBeGreaterThan(2);
    const text = chunks
      .map((chunk) => chunk.candidates[0]?.content.parts.map((part) => part.text).join(''))
      .join('');
    expect(text).toBe('Streamed Gemini text.');
    expect(chunks.slice(0, -1).every((chunk) => chunk.candidates[0]?.finishReason === undefined)).toBe(true);
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
    expect(chunks.at(-1)?.usageMetadata?.totalTokenCount).toBeGreaterThan(0);
  });

  it('streams a JSON array without alt=sse', async () => {
    server = await startMockModel({ script: [{ text: 'Array stream.' }], chunkSize: 5 });
    const response = await generate(server, {}, 'streamGenerateContent');
    const chunks = (await response.json()) as GenerateResponse[];
    expect(chunks.map((chunk) => chunk.candidates[0]?.content.parts[0]?.text).join('')).toBe('Array stream.');
  });

  it('streams thoughts and a function call, then matches the function response of the follow-up turn', async () => {
    server = await startMockModel({
      script: [
        { when: { lastRole: 'tool' }, text: 'The file says hello.' },
        {
          reasoning: 'Read it first.',
          toolCalls: [{ name: 'read_file', arguments: { absolute_path: '/repo/a.md' } }],
        },
      ],
    });
    const chunks = (await readEvents(await stream(server, {}))).map(
      (event) => event.data as GenerateResponse,
    );
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
    const thoughts = parts
      .filter((part) => part.thought)
      .map((part) => part.text)
      .join('');
    expect(thoughts).toBe('Read it first.');
    expect(parts.filter((part) => part.functionCall)).toEqual([
      { functionCall: { name: 'read_file', args: { absolute_path: '/repo/a.md' } } },
    ]);

    const followUp = await generate(server, {
      contents: [
        userTurn('Read a.md'),
        {
          role: 'model',
          parts: [{ functionCall: { name: 'read_file', args: { absolute_path: '/repo/a.md' } } }],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'hello' } } }] },
      ],
    });
    const answer = (await followUp.json()) as GenerateResponse;
    expect(answer.candidates[0]?.content.parts).toEqual([{ text: 'The file says hello.' }]);
    expect(server.remaining).toBe(0);
  });

  it('answers thoughts and a function call in one non-streamed response', async () => {
    server = await startMockModel({
      script: [
        { reasoning: 'Plan.', toolCalls: [{ name: 'run_shell_command', arguments: { command: 'ls' } }] },
      ],
    });
    const answer = (await (await generate(server, {})).json()) as GenerateResponse;
    expect(answer.candidates[0]?.content.parts).toEqual([
      { text: 'Plan.', thought: true },
      { functionCall: { name: 'run_shell_command', args: { command: 'ls' } } },
    ]);
  });

  it('answers a scripted error in Gemini error shape with its status', async () => {
    server = await startMockModel({
      script: [{ error: { status: 429, message: 'Quota exceeded', retryAfterSeconds: 2 } }],
    });
    const response = await stream(server, {});
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await response.json()).toEqual({
      error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' },
    });
  });

  it('lists models and counts tokens', async () => {
    server = await startMockModel({ models: ['gemini-mock', 'gemini-other'] });
    const list = (await (await fetch(`${server.baseUrl}/v1beta/models`)).json()) as {
      models: Array<{ name: string }>;
    };
    expect(list.models.map((model) => model.name)).toEqual(['models/gemini-mock', 'models/gemini-other']);
    const count = await generate(server, {}, 'countTokens');
    expect(await count.json()).toEqual({ totalTokens: expect.any(Number) });
    expect(server.requests.map((request) => request.protocol)).toEqual(['gemini', 'gemini']);
  });
});
