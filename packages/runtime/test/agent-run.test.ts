import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { KeelError, parseEvent } from '../src/index.ts';
import { collapse, startHarness } from './harness.ts';

describe('an agent run against the scripted model over HTTP', () => {
  test('lists, reads, edits a file and answers: the file changes, events follow the spec, usage adds up', async () => {
    await using h = await startHarness(
      [
        {
          toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }],
          usage: { prompt_tokens: 100, completion_tokens: 10 },
        },
        {
          toolCalls: [{ name: 'read_file', arguments: { path: 'greet.js' } }],
          usage: { prompt_tokens: 150, completion_tokens: 12 },
        },
        {
          toolCalls: [
            {
              name: 'edit_file',
              arguments: { path: 'greet.js', old_text: "'Hello'", new_text: "'Hello, world'" },
            },
          ],
          usage: { prompt_tokens: 200, completion_tokens: 20 },
        },
        {
          text: 'I changed the greeting in greet.js to say "Hello, world".',
          usage: { prompt_tokens: 260, completion_tokens: 15 },
        },
      ],
      { 'greet.js': "export const greet = () => 'Hello';\n", 'README.md': '# demo\n' },
    );

    const { events, result, types, error } = await h.collect({ prompt: 'Make the greeting say hello world' });
    expect(error).toBeUndefined();
    expect(await readFile(join(h.workdir, 'greet.js'), 'utf8')).toBe(
      "export const greet = () => 'Hello, world';\n",
    );

    expect(collapse(types)).toEqual([
      'session_start',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'text_delta',
      'done',
    ]);
    for (const event of events) expect(() => parseEvent(event)).not.toThrow();
    const sessionId = events[0]!.session_id;
    expect(events.every((event) => event.session_id === sessionId)).toBe(true);

    const listing = events.find((e) => e.type === 'tool_result' && e.tool_name === 'list_directory');
    expect(listing).toMatchObject({ result: expect.stringContaining('greet.js') });
    const calls = events.filter((e) => e.type === 'tool_call');
    expect(calls.map((c) => c.type === 'tool_call' && c.tool_name)).toEqual([
      'list_directory',
      'read_file',
      'edit_file',
    ]);

    expect(result).toMatchObject({
      status: 'success',
      output: 'I changed the greeting in greet.js to say "Hello, world".',
      session_id: sessionId,
      usage: { input_tokens: 710, output_tokens: 57, total_tokens: 767 },
    });
    expect(result!.tool_traces.map((t) => t.tool_name)).toEqual(['list_directory', 'read_file', 'edit_file']);
    expect(result!.tool_traces[1]!.args).toEqual({ path: 'greet.js' });

    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', output: result!.output, usage: result!.usage });
    expect(done.type === 'done' && done.metadata.summary).toBe(
      'I changed the greeting in greet.js to say "Hello, world".',
    );
    const text = events
      .filter((e) => e.type === 'text_delta')
      .map((e) => (e.type === 'text_delta' ? e.content : ''));
    expect(text.join('')).toBe(result!.output);

    // What the runtime sent: the tools, a system prompt, and each tool result fed back.
    const [first, , , last] = h.model.chatRequests;
    expect(first!.tools?.map((tool) => tool.function?.name)).toEqual(
      expect.arrayContaining([
        'read_file',
        'write_file',
        'edit_file',
        'list_directory',
        'grep',
        'glob',
        'search_files',
      ]),
    );
    expect(first!.messages![0]).toMatchObject({ role: 'system' });
    expect(first!.messages!.at(-1)).toMatchObject({
      role: 'user',
      content: 'Make the greeting say hello world',
    });
    expect(last!.messages!.filter((m) => m.role === 'tool')).toHaveLength(3);
  });

  test('thinking streams as `thinking` events and is returned whole', async () => {
    await using h = await startHarness([{ reasoning: 'The user wants a greeting. Easy.', text: 'Hello!' }]);
    const { events, result, types } = await h.collect({ prompt: 'Say hello' });
    expect(collapse(types)).toEqual(['session_start', 'thinking', 'text_delta', 'done']);
    expect(events.filter((e) => e.type === 'thinking').length).toBeGreaterThan(1);
    expect(result?.thinking).toBe('The user wants a greeting. Easy.');
  });

  test('a malformed tool call goes back to the model, which repairs it', async () => {
    await using h = await startHarness(
      [
        // Not repairable (a missing closing brace would be: model/tool-arguments.ts).
        { toolCalls: [{ name: 'read_file', arguments: '{"path": notes.txt}' }] },
        {
          when: { lastRole: 'tool', lastMessageIncludes: 'not valid JSON' },
          toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }],
        },
        { text: 'The notes say: remember the milk.' },
      ],
      { 'notes.txt': 'remember the milk\n' },
    );
    const { events, result, error } = await h.collect({ prompt: 'What do my notes say?' });
    expect(error).toBeUndefined();
    const results = events
      .filter((e) => e.type === 'tool_result')
      .map((e) => (e.type === 'tool_result' ? e.result : ''));
    expect(results[0]).toMatch(/^Error: Invalid arguments for read_file: the arguments are not valid JSON/);
    expect(results[0]).toContain('2 retries left');
    expect(results[1]).toContain('remember the milk');
    expect(result?.tool_traces[0]?.args).toEqual({ _raw: '{"path": notes.txt}' });
    expect(result?.metadata.issues).toHaveLength(1);
  });

  test('a tool failing three times is closed for the run; the model answers without it', async () => {
    const missing = { name: 'read_file', arguments: { path: 'missing.txt' } };
    await using h = await startHarness([
      { toolCalls: [missing] },
      { toolCalls: [missing] },
      { toolCalls: [missing] },
      { toolCalls: [missing] },
      { text: 'I could not find missing.txt.' },
    ]);
    const { events, result } = await h.collect({ prompt: 'Read missing.txt' });
    const results = events
      .filter((e) => e.type === 'tool_result')
      .map((e) => (e.type === 'tool_result' ? e.result : ''));
    expect(results).toHaveLength(4);
    expect(results[0]).toContain('2 retries left');
    expect(results[1]).toContain('1 retry left');
    expect(results[2]).toContain('failed 3 times in a row and is closed');
    expect(results[3]).toMatch(/^Error: tool 'read_file' failed 3 times in a row and is closed/);
    expect(result?.output).toBe('I could not find missing.txt.');
  });

  test('a 429 is retried with a `retry` event, then succeeds', async () => {
    await using h = await startHarness([
      { error: { status: 429, message: 'slow down', retryAfterSeconds: 0 } },
      { text: 'Done after waiting.' },
    ]);
    const { events, result, types } = await h.collect({ prompt: 'hi' });
    expect(collapse(types)).toEqual(['session_start', 'retry', 'text_delta', 'done']);
    const retry = events.find((e) => e.type === 'retry');
    expect(retry).toMatchObject({ attempt: 2, max_attempts: 4, error: expect.stringContaining('429') });
    expect(result?.output).toBe('Done after waiting.');
  });

  test('a stream dropped mid-way is retried; the partial output is superseded', async () => {
    await using h = await startHarness([
      { text: 'This answer will be cut off in the middle of a sentence.', drop: 'mid-stream' },
      { text: 'Complete answer.' },
    ]);
    const { types, result } = await h.collect({ prompt: 'hi' });
    const retryAt = types.indexOf('retry');
    expect(retryAt).toBeGreaterThan(1);
    expect(types.slice(1, retryAt).every((type) => type === 'text_delta')).toBe(true);
    expect(result?.output).toBe('Complete answer.');
  });

  test('when every attempt fails, the run ends with an `error` event and a ModelError', async () => {
    await using h = await startHarness([
      { error: { status: 500 } },
      { error: { status: 500 } },
      { error: { status: 500 } },
      { error: { status: 500 } },
    ]);
    const { events, error, types } = await h.collect({ prompt: 'hi' });
    expect(types).toEqual(['session_start', 'retry', 'retry', 'retry', 'error']);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'MODEL_ERROR' } });
    expect(KeelError.is(error) && error.code).toBe('MODEL_ERROR');
  });

  test('a 401 is an authentication error and is not retried', async () => {
    await using h = await startHarness([{ error: { status: 401, message: 'bad key' } }]);
    const { types, error } = await h.collect({ prompt: 'hi' });
    expect(types).toEqual(['session_start', 'error']);
    expect(KeelError.is(error) && error.code).toBe('AUTHENTICATION_FAILED');
  });

  test('a path escape asked for by the model is refused and reported back to it', async () => {
    await using h = await startHarness([
      { toolCalls: [{ name: 'read_file', arguments: { path: '../../../etc/passwd' } }] },
      { text: 'I am not allowed to read that.' },
    ]);
    const { events } = await h.collect({ prompt: 'read /etc/passwd' });
    const result = events.find((e) => e.type === 'tool_result');
    expect(result?.type === 'tool_result' && result.result).toMatch(/^Error: .*outside/);
    expect(h.model.chatRequests[1]!.messages!.at(-1)).toMatchObject({
      role: 'tool',
      content: expect.stringMatching(/outside/),
    });
  });

  test('max_steps trips the circuit breaker with a `circuit_breaker` event', async () => {
    await using h = await startHarness(
      [
        { toolCalls: [{ name: 'list_directory', arguments: {} }] },
        { toolCalls: [{ name: 'list_directory', arguments: {} }] },
      ],
      { 'a.txt': 'a' },
    );
    const { events, error, types } = await h.collect({ prompt: 'loop', max_steps: 1 });
    expect(collapse(types)).toEqual([
      'session_start',
      'tool_call',
      'tool_result',
      'circuit_breaker',
      'error',
    ]);
    expect(events.find((e) => e.type === 'circuit_breaker')).toMatchObject({
      reason: expect.stringContaining('step limit'),
    });
    expect(KeelError.is(error) && error.code).toBe('CIRCUIT_BREAKER');
  });

  test('the estimated cost trips the breaker: prices from the configuration, per-run max_cost_usd', async () => {
    const turn = (path: string) => ({
      toolCalls: [{ name: 'read_file', arguments: { path } }],
      usage: { prompt_tokens: 1000, completion_tokens: 100 },
    });
    await using h = await startHarness([turn('a.txt'), turn('b.txt'), { text: 'never asked' }], {
      'a.txt': 'a',
      'b.txt': 'b',
    });
    // $1 per 1000 input tokens and $0.01 per 100 output tokens: each turn costs $1.01.
    await writeFile(
      join(h.runtimeDir, 'config.json'),
      JSON.stringify({ pricing: { 'mock-model': { input_per_million: 1000, output_per_million: 100 } } }),
    );
    const { events, error, result, types } = await h.collect({ prompt: 'read', max_cost_usd: 1.5 });
    expect(result).toBeUndefined();
    expect(collapse(types)).toEqual([
      'session_start',
      'tool_call',
      'tool_result',
      // The second turn's call is not run: its turn already went over the limit.
      'circuit_breaker',
      'error',
    ]);
    const breaker = events.find((e) => e.type === 'circuit_breaker');
    expect(breaker).toMatchObject({ reason: 'cost limit exceeded: $2.0200 > $1.5', tokens_used: 2200 });
    expect(breaker?.type === 'circuit_breaker' && breaker.cost_usd).toBeCloseTo(2.02, 10);
    expect(KeelError.is(error) && error.code).toBe('CIRCUIT_BREAKER');
    expect(h.model.remaining).toBe(1);
    const [run] = await h.runtime.runs.list();
    expect(run?.status).toBe('failed');
    expect(run?.cost_usd).toBeCloseTo(2.02, 10);
  });

  test('an agent repeating the same tool call trips the breaker after loop_detect_turns turns', async () => {
    const again = { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] };
    await using h = await startHarness([again, again, again, again, again, again, { text: 'never asked' }], {
      'a.txt': 'same every time',
    });
    const { events, error } = await h.collect({ prompt: 'read a.txt until it changes' });
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(6);
    expect(events.at(-2)).toMatchObject({
      type: 'circuit_breaker',
      reason: 'loop detected: the tool calls and results of the last 6 turns are 100% alike',
    });
    expect(KeelError.is(error) && error.code).toBe('CIRCUIT_BREAKER');
    expect(h.model.remaining).toBe(1);

    // Off when the breaker is disabled, and the turn count is configurable.
    await using quiet = await startHarness([again, again, again, { text: 'Done.' }], { 'a.txt': 'same' });
    await writeFile(
      join(quiet.runtimeDir, 'config.json'),
      JSON.stringify({ circuit_breaker: { enabled: false } }),
    );
    expect((await quiet.collect({ prompt: 'read' })).result?.output).toBe('Done.');
    await using short = await startHarness([again, again, again], { 'a.txt': 'same' });
    await writeFile(
      join(short.runtimeDir, 'config.json'),
      JSON.stringify({ circuit_breaker: { loop_detect_turns: 2 } }),
    );
    const tripped = await short.collect({ prompt: 'read' });
    expect(tripped.types.filter((type) => type === 'tool_result')).toHaveLength(2);
    expect(KeelError.is(tripped.error) && tripped.error.code).toBe('CIRCUIT_BREAKER');
  });
});
