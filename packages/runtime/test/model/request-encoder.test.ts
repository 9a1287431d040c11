import { startMockModel } from '@keel/testkit';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { type ChatMessage, ModelClient } from '../../src/index.ts';
import type { ModelTool } from '../../src/model/index.ts';
import { toWireMessages } from '../../src/model/messages.ts';
import { RequestEncoder } from '../../src/model/request-encoder.ts';

const tools: ModelTool[] = [
  {
    type: 'function',
    function: { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object' } },
  },
];
const head = { model: 'm', stream: true, stream_options: { include_usage: true } };

/** A conversation of `steps` tool calls and results after a system prompt and a task. */
function conversation(steps: number): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are a coding agent. “Quotes”, ünïcödé and \\ escapes.' },
    { role: 'user', content: 'Read the files.' },
  ];
  for (let i = 1; i <= steps; i++) grow(messages, i);
  return messages;
}

function grow(messages: ChatMessage[], i: number): void {
  messages.push({
    role: 'assistant',
    content: '',
    reasoning: 'not sent',
    tool_calls: [{ id: `call_${i}`, name: 'read_file', arguments: `{"path":"f${i}.txt"}` }],
  });
  messages.push({ role: 'tool', tool_call_id: `call_${i}`, content: `content of file ${i}.\n` });
}

const parsed = (body: Buffer) => JSON.parse(body.toString('utf8'));

afterEach(() => vi.restoreAllMocks());

describe('RequestEncoder: each turn encodes only what it adds', () => {
  test('the body is the request the whole conversation makes, turn after turn', () => {
    const encoder = new RequestEncoder();
    const messages = conversation(0);
    for (let i = 1; i <= 20; i++) {
      const body = encoder.encode(head, messages, tools);
      expect(parsed(body)).toEqual({ ...head, tools, messages: toWireMessages(messages) });
      encoder.settle(body, true);
      grow(messages, i);
    }
    const empty = encoder.encode({}, [], []);
    expect(parsed(empty)).toEqual({ messages: [] });
  });

  test('messages already sent are not serialised again, and what is kept stays about one conversation', () => {
    const encoder = new RequestEncoder();
    const messages = conversation(0);
    const stringify = vi.spyOn(JSON, 'stringify');
    let body = encoder.encode(head, messages, tools);
    for (let i = 1; i <= 300; i++) {
      encoder.settle(body, true);
      grow(messages, i);
      body = encoder.encode(head, messages, tools);
    }
    // Per turn its head, per message once, the tools once: not the conversation each turn (~90,000).
    expect(stringify.mock.calls.length).toBe(301 + messages.length + 1);
    const conversationBytes = Buffer.byteLength(JSON.stringify(toWireMessages(messages)));
    expect(encoder.retainedBytes).toBeLessThan(2 * conversationBytes + 64 * 1024);
  });

  test('the opening, tools and all, is encoded once while the head and the tools stay the same', () => {
    const encoder = new RequestEncoder();
    const messages = conversation(0);
    const measured = vi.spyOn(Buffer, 'byteLength');
    const made = vi.spyOn(Buffer, 'from');
    // Calls given the opening's text (`{"model":…,"tools":[…],"messages":[`): each one encodes it again.
    const encodings = () =>
      [...measured.mock.calls, ...made.mock.calls].filter(
        ([value]) => typeof value === 'string' && value.endsWith('"messages":['),
      ).length;
    const turn = (turnHead: Record<string, unknown>, turnTools: ModelTool[]) => {
      const body = encoder.encode(turnHead, messages, turnTools);
      expect(parsed(body)).toEqual({
        ...turnHead,
        ...(turnTools.length ? { tools: turnTools } : {}),
        messages: toWireMessages(messages),
      });
      encoder.settle(body, true);
      grow(messages, messages.length);
    };
    for (let i = 0; i < 10; i++) turn(head, tools);
    expect(encodings()).toBe(1);
    // A head without a field the server refused, then new tools: each is a new opening, once.
    const { stream_options: _, ...refused } = head;
    for (let i = 0; i < 3; i++) turn(refused, tools);
    expect(encodings()).toBe(2);
    const more = [...tools, { ...tools[0]!, function: { ...tools[0]!.function, name: 'list_files' } }];
    for (let i = 0; i < 3; i++) turn(refused, more);
    turn(refused, []);
    turn(head, tools);
    expect(encodings()).toBe(5);
  });

  test('a pruned or shortened conversation is encoded again from the first message that changed', () => {
    const encoder = new RequestEncoder();
    const messages = conversation(10);
    encoder.settle(encoder.encode(head, messages, tools), true);
    const pruned = [...messages];
    pruned[3] = { role: 'tool', tool_call_id: 'call_1', content: '[Pruned to save context]' };
    expect(parsed(encoder.encode(head, pruned, tools)).messages).toEqual(toWireMessages(pruned));
    const compacted = [messages[0]!, { role: 'user', content: 'Summary of the work so far.' } as ChatMessage];
    expect(parsed(encoder.encode(head, compacted, [])).messages).toEqual(toWireMessages(compacted));
    expect(parsed(encoder.encode(head, compacted, [])).tools).toBeUndefined();
  });

  test('a body still out (its request failed or is in flight) is never written over', () => {
    const encoder = new RequestEncoder();
    const messages = conversation(3);
    const first = encoder.encode(head, messages, tools);
    const sent = Buffer.from(first);
    encoder.settle(first, false);
    grow(messages, 4);
    const second = encoder.encode({ ...head, model: 'other-model' }, messages, tools);
    expect(first.equals(sent)).toBe(true);
    grow(messages, 5);
    const third = encoder.encode(head, messages, tools);
    expect(parsed(second).messages).toEqual(toWireMessages(messages.slice(0, -2)));
    expect(parsed(second).model).toBe('other-model');
    expect(parsed(third).messages).toEqual(toWireMessages(messages));
  });
});

describe('ModelClient sends the encoded bytes', () => {
  test('what the model receives is the conversation, with thinking settings, turn after turn', async () => {
    await using model = await startMockModel({
      script: [{ repeat: true, toolCalls: [{ name: 'read_file', arguments: { path: 'f.txt' } }] }],
    });
    const client = new ModelClient({
      model: 'mock-model',
      baseURL: model.url,
      apiKey: 'k',
      enableThinking: true,
    });
    const messages = conversation(0);
    for (let i = 1; i <= 3; i++) {
      const turn = await client.turn(messages, tools, {}, new AbortController().signal);
      expect(turn.toolCalls).toEqual([
        { id: expect.any(String), name: 'read_file', arguments: '{"path":"f.txt"}' },
      ]);
      grow(messages, i);
    }
    expect(model.chatRequests).toHaveLength(3);
    const last = model.chatRequests[2]!;
    expect(last).toMatchObject({ model: 'mock-model', stream: true, enable_thinking: true, tools });
    expect(last.messages).toEqual(toWireMessages(messages.slice(0, -2)));
    expect(model.requests[2]!.headers['content-type']).toBe('application/json');
  });
});
