import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ScriptedReply, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { KeelError } from '../../src/index.ts';
import { type ChatMessage, ModelClient, type ModelTool } from '../../src/model/index.ts';
import { startHarness } from '../harness.ts';

// Some OpenAI-compatible servers never send `usage`, even asked with stream_options.include_usage. Keel
// then estimates the turn's tokens (four characters a token), marks them as estimates, and counts them
// in the run's usage and against its budgets as it would the server's own.

const silent = (reply: ScriptedReply): ScriptedReply => ({ ...reply, omitUsage: true });

const messages: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Say hello to the world, please.' },
];
const tools: ModelTool[] = [
  {
    type: 'function',
    function: { name: 'read_file', description: 'Read a file.', parameters: { type: 'object' } },
  },
];

describe('usage a server does not send is estimated', () => {
  test('the scripted server can leave usage out, even when it is asked for', async () => {
    await using model = await startMockModel({ script: [silent({ text: 'Hello, world.' })] });
    const answer = await fetch(`${model.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages, stream: true, stream_options: { include_usage: true } }),
    });
    const stream = await answer.text();
    expect(stream).toContain('Hello');
    expect(stream).not.toContain('"usage"');
  });

  test('a turn without usage: estimated from the request and the answer, and marked', async () => {
    const text = 'Hello, world. '.repeat(20);
    await using model = await startMockModel({ script: [silent({ text })] });
    const client = new ModelClient({ model: 'mock-model', apiKey: 'no-key', baseURL: model.url });
    const turn = await client.turn(messages, tools);
    // The client asked for usage; the server sent none.
    expect(model.chatRequests[0]!.stream_options).toEqual({ include_usage: true });
    const chars = (value: string) => Math.ceil(value.length / 4);
    const input =
      chars(JSON.stringify(tools)) + 4 + chars(messages[0]!.content) + 4 + chars(messages[1]!.content);
    expect(turn.usage).toEqual({ input_tokens: input, output_tokens: chars(text), estimated: true });
  });

  test("a server's own usage is taken as it is, not marked", async () => {
    await using model = await startMockModel({
      script: [{ text: 'Hello.', usage: { prompt_tokens: 321, completion_tokens: 7 } }],
    });
    const client = new ModelClient({ model: 'mock-model', apiKey: 'no-key', baseURL: model.url });
    const turn = await client.turn(messages, tools);
    expect(turn.usage).toEqual({ input_tokens: 321, output_tokens: 7 });
  });

  test("a run's usage counts the estimates, and its agent state says they are estimates", async () => {
    await using h = await startHarness(
      [
        silent({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }),
        silent({ when: { lastRole: 'tool' }, text: 'It says alpha.' }),
      ],
      { 'a.txt': 'alpha' },
    );
    const { result, error } = await h.collect({ prompt: 'What does a.txt say?' });
    expect(error).toBeUndefined();
    expect(result!.usage.input_tokens).toBeGreaterThan(0);
    expect(result!.usage.output_tokens).toBeGreaterThan(0);
    expect(result!.usage.estimated).toBe(true);
    const [run] = await h.runtime.runs.list();
    expect(run!.usage.total_tokens).toBe(result!.usage.total_tokens);
    const [last] = (await h.runtime.runs.checkpoints(run!.id)).slice(-1);
    expect(JSON.stringify(last!.state)).toContain('"estimated":true');
  });

  test('max_tokens is enforced on estimates', async () => {
    await using h = await startHarness(
      [
        silent({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }),
        silent({ when: { lastRole: 'tool' }, text: 'never asked' }),
      ],
      { 'a.txt': 'alpha' },
    );
    const { events, error, types } = await h.collect({ prompt: 'What does a.txt say?', max_tokens: 100 });
    expect(KeelError.is(error) && error.code).toBe('CIRCUIT_BREAKER');
    // The first turn's estimate is over the budget: its call is not run.
    expect(types).toEqual(['session_start', 'circuit_breaker', 'error']);
    const breaker = events.find((event) => event.type === 'circuit_breaker');
    expect(breaker?.type === 'circuit_breaker' && breaker.tokens_used).toBeGreaterThan(100);
    expect(h.model.remaining).toBe(1);
  });

  test('max_cost_usd is enforced on estimates', async () => {
    await using h = await startHarness(
      [
        silent({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }),
        silent({ when: { lastRole: 'tool' }, text: 'never asked' }),
      ],
      { 'a.txt': 'alpha' },
    );
    // A dollar a token: any estimate is over a $50 budget.
    await writeFile(
      join(h.runtimeDir, 'config.json'),
      JSON.stringify({
        pricing: { 'mock-model': { input_per_million: 1_000_000, output_per_million: 1_000_000 } },
      }),
    );
    const { events, error } = await h.collect({ prompt: 'What does a.txt say?', max_cost_usd: 50 });
    expect(KeelError.is(error) && error.code).toBe('CIRCUIT_BREAKER');
    const breaker = events.find((event) => event.type === 'circuit_breaker');
    expect(breaker?.type === 'circuit_breaker' && breaker.reason).toMatch(/^cost limit exceeded/);
    expect(h.model.remaining).toBe(1);
  });
});
