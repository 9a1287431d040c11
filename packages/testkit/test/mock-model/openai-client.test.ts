// Proves the official OpenAI client parses what the mock model sends.
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockModel } from '../../src/index.ts';
import { startMockModel } from '../../src/index.ts';

describe('the official openai client against the mock model', () => {
  let server: MockModel;
  afterEach(() => server.close());
  const client = (model: MockModel) => new OpenAI({ baseURL: model.url, apiKey: 'test-key', maxRetries: 0 });

  it('streams text, reasoning and parallel tool calls that accumulate correctly', async () => {
    server = await startMockModel({
      script: [
        {
          reasoning: 'Two files to read.',
          text: 'Reading both.',
          toolCalls: [
            { name: 'read_file', arguments: { path: 'src/a.ts' } },
            { name: 'read_file', arguments: { path: 'src/b.ts', lines: [1, 20] } },
          ],
        },
      ],
    });
    const stream = await client(server).chat.completions.create({
      model: 'mock-model',
      messages: [{ role: 'user', content: 'Read a and b' }],
      tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let reasoning = '';
    let finishReason: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    const calls: Array<{ id: string; name: string; arguments: string }> = [];
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      text += choice.delta.content ?? '';
      reasoning += (choice.delta as { reasoning_content?: string }).reasoning_content ?? '';
      for (const delta of choice.delta.tool_calls ?? []) {
        calls[delta.index] ??= { id: '', name: '', arguments: '' };
        const call = calls[delta.index]!;
        call.id ||= delta.id ?? '';
        call.name += delta.function?.name ?? '';
        call.arguments += delta.function?.arguments ?? '';
      }
      finishReason = choice.finish_reason ?? finishReason;
    }
    expect(text).toBe('Reading both.');
    expect(reasoning).toBe('Two files to read.');
    expect(finishReason).toBe('tool_calls');
    expect(calls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([
      ['read_file', { path: 'src/a.ts' }],
      ['read_file', { path: 'src/b.ts', lines: [1, 20] }],
    ]);
    expect(calls.every((call) => call.id.length > 0)).toBe(true);
    expect(usage?.total_tokens).toBeGreaterThan(0);
    expect(server.chatRequests[0]?.tools).toHaveLength(1);
  });

  it('builds the same final message with the stream helper', async () => {
    server = await startMockModel({
      script: [{ toolCalls: [{ id: 'call_x', name: 'bash', arguments: { cmd: 'ls' } }] }],
    });
    const runner = client(server).chat.completions.stream({
      model: 'mock-model',
      messages: [{ role: 'user', content: 'list files' }],
    });
    const completion = await runner.finalChatCompletion();
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      id: 'call_x',
      function: { name: 'bash', arguments: '{"cmd":"ls"}' },
    });
  });

  it('parses a non-streamed completion and maps a 429 to RateLimitError', async () => {
    server = await startMockModel({
      script: [{ text: 'Plain answer.' }, { error: { status: 429, retryAfterSeconds: 1 } }],
    });
    const openai = client(server);
    const completion = await openai.chat.completions.create({
      model: 'mock-model',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Plain answer.');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
    const error = await openai.chat.completions
      .create({ model: 'mock-model', messages: [{ role: 'user', content: 'again' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('1');
  });

  it('lists models', async () => {
    server = await startMockModel({ models: ['mock-a', 'mock-b'] });
    const ids: string[] = [];
    for await (const model of client(server).models.list()) ids.push(model.id);
    expect(ids).toEqual(['mock-a', 'mock-b']);
  });
});
