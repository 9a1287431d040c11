// The OpenAI Responses API (what Codex CLI speaks), driven through the official openai client.
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockModel } from '../../src/index.ts';
import { startMockModel } from '../../src/index.ts';
import { readEvents } from '../sse-events.ts';

describe('the Responses API (POST /v1/responses)', () => {
  let server: MockModel;
  afterEach(() => server.close());
  const client = (model: MockModel) => new OpenAI({ baseURL: model.url, apiKey: 'test-key', maxRetries: 0 });

  it('answers text with usage, and records the request with its protocol', async () => {
    server = await startMockModel({
      script: [{ text: 'Hello from Responses.', usage: { prompt_tokens: 7, completion_tokens: 3 } }],
    });
    const response = await client(server).responses.create({
      model: 'mock-model',
      instructions: 'Be brief.',
      input: 'Say hello',
    });
    expect(response).toMatchObject({ object: 'response', status: 'completed', model: 'mock-model' });
    expect(response.output_text).toBe('Hello from Responses.');
    expect(response.output[0]).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hello from Responses.' }],
    });
    expect(response.usage).toMatchObject({ input_tokens: 7, output_tokens: 3, total_tokens: 10 });
    expect(server.requests[0]).toMatchObject({
      protocol: 'responses',
      method: 'POST',
      path: '/v1/responses',
      body: { input: 'Say hello', instructions: 'Be brief.' },
    });
    expect(server.chatRequests).toHaveLength(0);
  });

  it('streams text as OpenAI does: named events, increasing sequence numbers, completed with usage', async () => {
    server = await startMockModel({ script: [{ text: 'Streamed over several deltas.' }], chunkSize: 5 });
    const stream = await client(server).responses.create({
      model: 'mock-model',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'stream please' }] }],
      stream: true,
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const types = events.map((event) => event.type);
    expect(types.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const deltas = events.flatMap((event) =>
      event.type === 'response.output_text.delta' ? [event.delta] : [],
    );
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Streamed over several deltas.');
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.usage?.total_tokens).toBeGreaterThan(0);
    expect(completed.response.output[0]).toMatchObject({ type: 'message', status: 'completed' });
  });

  it('names each SSE event on an `event:` line matching its type', async () => {
    server = await startMockModel({ script: [{ text: 'hi' }] });
    const response = await fetch(`${server.url}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-model', input: 'hi', stream: true }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readEvents(response);
    expect(events.length).toBeGreaterThan(5);
    for (const event of events) expect(event.event).toBe(event.data.type);
  });

  it('streams reasoning and a tool call, then matches the tool result of the follow-up turn', async () => {
    server = await startMockModel({
      script: [
        { when: { lastRole: 'tool' }, text: 'The file says hello.' },
        {
          reasoning: 'I should read the file.',
          toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { path: 'README.md' } }],
        },
      ],
    });
    const openai = client(server);
    const tools: OpenAI.Responses.Tool[] = [
      { type: 'function', name: 'read_file', parameters: { type: 'object' }, strict: false },
    ];
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Read the README' }];
    const first = await openai.responses.stream({ model: 'mock-model', input, tools }).finalResponse();
    const [reasoning, call] = first.output;
    expect(reasoning).toMatchObject({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'I should read the file.' }],
    });
    expect(call).toMatchObject({
      type: 'function_call',
      call_id: 'call_read',
      name: 'read_file',
      arguments: '{"path":"README.md"}',
    });

    const second = await openai.responses.create({
      model: 'mock-model',
      tools,
      input: [
        ...input,
        { type: 'function_call', call_id: 'call_read', name: 'read_file', arguments: '{"path":"README.md"}' },
        { type: 'function_call_output', call_id: 'call_read', output: 'hello' },
      ],
    });
    expect(second.output_text).toBe('The file says hello.');
    expect(server.remaining).toBe(0);
  });

  it('streams tool call arguments in fragments', async () => {
    server = await startMockModel({
      script: [{ toolCalls: [{ name: 'bash', arguments: { command: 'ls -la /tmp' } }] }],
    });
    const stream = await client(server).responses.create({
      model: 'mock-model',
      input: 'list',
      stream: true,
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const fragments = events.flatMap((event) =>
      event.type === 'response.function_call_arguments.delta' ? [event.delta] : [],
    );
    expect(fragments.length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(fragments.join(''))).toEqual({ command: 'ls -la /tmp' });
    const done = events.find((event) => event.type === 'response.function_call_arguments.done');
    expect(done).toMatchObject({ arguments: '{"command":"ls -la /tmp"}' });
  });

  it('answers a scripted error in OpenAI error shape with its status', async () => {
    server = await startMockModel({
      script: [{ error: { status: 429, message: 'Slow down', retryAfterSeconds: 1 } }],
    });
    const error = await client(server)
      .responses.create({ model: 'mock-model', input: 'hi', stream: true })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimit.headers.get('retry-after')).toBe('1');
    expect(rateLimit.error).toMatchObject({
      message: 'Slow down',
      type: 'requests',
      code: 'rate_limit_exceeded',
    });
  });
});
