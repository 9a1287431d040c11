// The Anthropic Messages API (what Claude Code speaks), over raw fetch: no Anthropic SDK is installed.
import { afterEach, describe, expect, it } from 'vitest';
import type { MockModel } from '../../src/index.ts';
import { startMockModel } from '../../src/index.ts';
import type { SseEvent } from '../sse-events.ts';
import { postJson, readEvents } from '../sse-events.ts';

type Block = {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  id?: string;
  name?: string;
  input?: unknown;
};
type Message = {
  id: string;
  type: string;
  role: string;
  model: string;
  content: Block[];
  stop_reason: string;
  usage: { input_tokens: number; output_tokens: number };
};

const headers = { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' };
const messages = (server: MockModel, body: Record<string, unknown>) =>
  postJson(
    server.baseUrl,
    '/v1/messages?beta=true',
    { model: 'claude-mock', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }], ...body },
    headers,
  );

/** Rebuild the content blocks from a stream, as a client does. */
function assemble(events: SseEvent[]) {
  const blocks: Array<Record<string, unknown> & { partial?: string }> = [];
  for (const { data } of events) {
    const index = data.index as number;
    if (data.type === 'content_block_start') blocks[index] = { ...(data.content_block as object) };
    if (data.type !== 'content_block_delta') continue;
    const block = blocks[index]!;
    const delta = data.delta as Record<string, string>;
    if (delta.type === 'text_delta') block.text = `${block.text}${delta.text}`;
    if (delta.type === 'thinking_delta') block.thinking = `${block.thinking}${delta.thinking}`;
    if (delta.type === 'signature_delta') block.signature = delta.signature;
    if (delta.type === 'input_json_delta') block.partial = `${block.partial ?? ''}${delta.partial_json}`;
  }
  return blocks;
}

describe('the Anthropic Messages API (POST /v1/messages)', () => {
  let server: MockModel;
  afterEach(() => server.close());

  it('answers a message with text and usage, and records the request with its protocol', async () => {
    server = await startMockModel({
      script: [{ text: 'Hello from Claude.', usage: { prompt_tokens: 12, completion_tokens: 4 } }],
    });
    const response = await messages(server, { system: 'Be brief.' });
    expect(response.status).toBe(200);
    const message = (await response.json()) as Message;
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-mock',
      content: [{ type: 'text', text: 'Hello from Claude.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 12, output_tokens: 4 },
    });
    expect(message.id).toMatch(/^msg_/);
    expect(server.requests[0]).toMatchObject({
      protocol: 'anthropic',
      path: '/v1/messages',
      headers: { 'x-api-key': 'test-key' },
      body: { system: 'Be brief.', max_tokens: 1024 },
    });
    expect(server.chatRequests).toHaveLength(0);
  });

  it('streams text with named events in Anthropic order', async () => {
    server = await startMockModel({ script: [{ text: 'Streamed in pieces.' }], chunkSize: 4 });
    const response = await messages(server, { stream: true });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readEvents(response);
    for (const event of events) expect(event.event).toBe(event.data.type);
    const types = events.map((event) => event.event);
    expect(types.slice(0, 3)).toEqual(['message_start', 'ping', 'content_block_start']);
    expect(types.slice(-4)).toEqual([
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0]?.data.message).toMatchObject({ role: 'assistant', content: [], stop_reason: null });
    expect(types.filter((type) => type === 'content_block_delta').length).toBeGreaterThan(3);
    expect(assemble(events)).toEqual([{ type: 'text', text: 'Streamed in pieces.' }]);
    expect(events.at(-2)?.data).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { output_tokens: expect.any(Number) },
    });
  });

  it('streams thinking and a tool call, then matches the tool result of the follow-up turn', async () => {
    server = await startMockModel({
      script: [
        {
          reasoning: 'Need the file first.',
          toolCalls: [{ id: 'toolu_1', name: 'Read', arguments: { file_path: '/repo/README.md' } }],
        },
        { when: { lastRole: 'tool', lastMessageIncludes: 'hello' }, text: 'It says hello.' },
      ],
    });
    const events = await readEvents(await messages(server, { stream: true }));
    const [thinking, toolUse] = assemble(events);
    expect(thinking).toEqual({
      type: 'thinking',
      thinking: 'Need the file first.',
      signature: expect.any(String),
    });
    expect(toolUse).toMatchObject({ type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} });
    expect(JSON.parse(toolUse?.partial ?? '')).toEqual({ file_path: '/repo/README.md' });
    expect(events.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'tool_use' } });

    const followUp = await messages(server, {
      messages: [
        { role: 'user', content: 'Read the README' },
        {
          role: 'assistant',
          content: [thinking, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'hello' }] },
          ],
        },
      ],
    });
    const message = (await followUp.json()) as Message;
    expect(message.content).toEqual([{ type: 'text', text: 'It says hello.' }]);
    expect(server.remaining).toBe(0);
  });

  it('answers thinking and tool use in one non-streamed message', async () => {
    server = await startMockModel({
      script: [
        {
          reasoning: 'Plan.',
          text: 'Running it.',
          toolCalls: [{ name: 'Bash', arguments: { command: 'ls' } }],
        },
      ],
    });
    const message = (await (await messages(server, {})).json()) as Message;
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Plan.', signature: expect.any(String) },
      { type: 'text', text: 'Running it.' },
      { type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'Bash', input: { command: 'ls' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('answers a scripted error in Anthropic error shape with its status', async () => {
    server = await startMockModel({
      script: [
        { error: { status: 529, message: 'Overloaded' } },
        { error: { status: 429, retryAfterSeconds: 3 } },
      ],
    });
    const overloaded = await messages(server, { stream: true });
    expect(overloaded.status).toBe(529);
    expect(await overloaded.json()).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
    const limited = await messages(server, {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  it('counts tokens, and says "script exhausted" in its own error shape', async () => {
    server = await startMockModel();
    const count = await postJson(server.baseUrl, '/v1/messages/count_tokens?beta=true', {
      model: 'claude-mock',
      messages: [{ role: 'user', content: 'How many tokens is this?' }],
    });
    expect(await count.json()).toEqual({ input_tokens: expect.any(Number) });
    const exhausted = await messages(server, {});
    expect(exhausted.status).toBe(500);
    const body = (await exhausted.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.message).toContain('(user) "hi"');
    expect(server.requests.map((request) => request.protocol)).toEqual(['anthropic', 'anthropic']);
  });
});
