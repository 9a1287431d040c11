import { afterEach, describe, expect, it } from 'vitest';
import type { MockModel } from '../../src/index.ts';
import { startMockModel } from '../../src/index.ts';
import { assembleToolCalls, joinDeltas, postChat, readSse } from '../helpers.ts';

describe('streaming chat completions', () => {
  let server: MockModel;
  afterEach(() => server.close());

  it('streams text in small chat.completion.chunk pieces and ends with [DONE]', async () => {
    server = await startMockModel({ script: [{ text: 'Hello from the scripted model!' }], chunkSize: 5 });
    const response = await postChat(server, { stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { chunks, done } = await readSse(response);
    expect(done).toBe(true);
    expect(joinDeltas(chunks, 'content')).toBe('Hello from the scripted model!');
    const textChunks = chunks.filter((chunk) => chunk.choices[0]?.delta.content);
    expect(textChunks.length).toBe(6);
    expect(chunks[0]).toMatchObject({ object: 'chat.completion.chunk', model: 'mock-model' });
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks.at(-1)?.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('streams reasoning_content before the text', async () => {
    server = await startMockModel({
      script: [{ reasoning: 'Think about the question first.', text: 'Answer.' }],
    });
    const { chunks } = await readSse(await postChat(server, { stream: true }));
    expect(joinDeltas(chunks, 'reasoning_content')).toBe('Think about the question first.');
    const firstText = chunks.findIndex((chunk) => chunk.choices[0]?.delta.content);
    const lastReasoning = chunks.findLastIndex((chunk) => chunk.choices[0]?.delta.reasoning_content);
    expect(lastReasoning).toBeGreaterThan(0);
    expect(lastReasoning).toBeLessThan(firstText);
  });

  it('splits tool-call arguments into fragments that reassemble into valid JSON', async () => {
    const args = { path: 'src/index.ts', content: 'export const answer = 42;\n' };
    server = await startMockModel({
      script: [{ toolCalls: [{ id: 'call_write', name: 'write_file', arguments: args }] }],
    });
    const { chunks } = await readSse(await postChat(server, { stream: true }));
    const header = chunks.find((chunk) => chunk.choices[0]?.delta.tool_calls)?.choices[0]?.delta.tool_calls;
    expect(header).toEqual([
      { index: 0, id: 'call_write', type: 'function', function: { name: 'write_file', arguments: '' } },
    ]);
    const [call] = assembleToolCalls(chunks);
    expect(call?.fragments).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(call?.arguments ?? '')).toEqual(args);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('streams parallel tool calls with index 0, 1, 2 and generated ids', async () => {
    server = await startMockModel({
      script: [
        {
          text: 'Reading three files.',
          toolCalls: [
            { name: 'read_file', arguments: { path: 'a.ts' } },
            { name: 'read_file', arguments: { path: 'b.ts' } },
            { name: 'list_dir', arguments: {} },
          ],
        },
      ],
    });
    const { chunks } = await readSse(await postChat(server, { stream: true }));
    const calls = assembleToolCalls(chunks);
    expect(calls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([
      ['read_file', { path: 'a.ts' }],
      ['read_file', { path: 'b.ts' }],
      ['list_dir', {}],
    ]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(3);
    expect(calls.every((call) => call.id.startsWith('call_'))).toBe(true);
    expect(joinDeltas(chunks, 'content')).toBe('Reading three files.');
  });

  it('keeps malformed string arguments raw', async () => {
    const raw = '{"path": "a.ts", "content": "unterminated';
    server = await startMockModel({ script: [{ toolCalls: [{ name: 'write_file', arguments: raw }] }] });
    const { chunks } = await readSse(await postChat(server, { stream: true }));
    expect(assembleToolCalls(chunks)[0]?.arguments).toBe(raw);
  });

  it('sends a final usage chunk with empty choices when include_usage is set', async () => {
    server = await startMockModel({
      script: [{ text: 'Counted.', usage: { prompt_tokens: 12, completion_tokens: 3 } }],
    });
    const { chunks, done } = await readSse(
      await postChat(server, { stream: true, stream_options: { include_usage: true } }),
    );
    expect(done).toBe(true);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('honours a scripted finish reason and the requested model name', async () => {
    server = await startMockModel({ script: [{ text: 'cut', finishReason: 'length' }] });
    const { chunks } = await readSse(await postChat(server, { stream: true, model: 'other-model' }));
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('length');
    expect(chunks.every((chunk) => chunk.model === 'other-model')).toBe(true);
  });
});
