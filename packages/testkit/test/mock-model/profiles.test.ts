import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockModel, MockModelOptions } from '../../src/index.ts';
import { createTempDir, startMockModel } from '../../src/index.ts';
import { chatProfiles, mockProfileNames } from '../../src/mock-model/index.ts';
import { type Chunk, joinDeltas, postChat, readJson, readSse } from '../helpers.ts';

// Each profile writes chat completions as its server family does (profiles.ts cites where each behaviour
// is documented); the default stays OpenAI's wire, which the other test files pin down.

const readFile = { name: 'read_file', arguments: { path: 'a.txt' } };
const listDirectory = { name: 'list_directory', arguments: { path: '.' } };

type ToolCallDelta = { index?: number; id?: string; function?: { name?: string; arguments?: unknown } };
const toolCallDeltas = (chunks: Chunk[]): ToolCallDelta[] =>
  chunks.flatMap((chunk) => (chunk.choices[0]?.delta.tool_calls ?? []) as ToolCallDelta[]);
const finishReason = (chunks: Chunk[]) =>
  chunks.findLast((chunk) => chunk.choices[0])?.choices[0]?.finish_reason;

describe('profiles of the scripted model server', () => {
  let server: MockModel;
  afterEach(() => server?.close());
  const start = (options: MockModelOptions) => startMockModel(options).then((started) => (server = started));

  it('every profile documents each behaviour with a source', () => {
    expect(Object.keys(chatProfiles).sort()).toEqual([...mockProfileNames].sort());
    for (const profile of Object.values(chatProfiles)) {
      expect(profile.documented.length).toBeGreaterThan(0);
      for (const row of profile.documented) expect(row.source).toMatch(/\S{6}/);
    }
  });

  it('ollama: each call whole in one chunk at index 0, arguments as an object, a `reasoning` field', async () => {
    await start({
      profile: 'ollama',
      script: [{ reasoning: 'Look first.', toolCalls: [listDirectory, readFile] }],
    });
    const { chunks } = await readSse(await postChat(server, { stream: true }));
    expect(joinDeltas(chunks, 'reasoning')).toBe('Look first.');
    expect(joinDeltas(chunks, 'reasoning_content')).toBe('');
    expect(toolCallDeltas(chunks)).toEqual([
      {
        index: 0,
        id: 'call_mock_1',
        type: 'function',
        function: { name: 'list_directory', arguments: { path: '.' } },
      },
      {
        index: 0,
        id: 'call_mock_2',
        type: 'function',
        function: { name: 'read_file', arguments: { path: 'a.txt' } },
      },
    ]);
    expect(finishReason(chunks)).toBe('tool_calls');
  });

  it('ollama-legacy: tool calls without index and finish_reason "stop"', async () => {
    await start({ profile: 'ollama-legacy', script: [{ toolCalls: [readFile] }] });
    const { chunks } = await readSse(await postChat(server, { stream: true }));
    const [call] = toolCallDeltas(chunks);
    expect(call).not.toHaveProperty('index');
    expect(call?.function).toEqual({ name: 'read_file', arguments: '{"path":"a.txt"}' });
    expect(finishReason(chunks)).toBe('stop');
  });

  it('vllm-hermes / qwen: <think> and <tool_call> text in content, no tool calls, "stop"', async () => {
    for (const profile of ['vllm-hermes', 'qwen'] as const) {
      await start({
        profile,
        chunkSize: 5,
        script: [{ reasoning: 'Hmm.', text: 'Reading.', toolCalls: [readFile] }],
      });
      const { chunks } = await readSse(await postChat(server, { stream: true }));
      expect(joinDeltas(chunks, 'content')).toBe(
        '<think>\nHmm.\n</think>\n\nReading.\n\n<tool_call>\n{"name": "read_file", "arguments": {"path":"a.txt"}}\n</tool_call>',
      );
      expect(toolCallDeltas(chunks)).toEqual([]);
      expect(finishReason(chunks)).toBe('stop');
      await server.close();
    }
  });

  it('llamacpp: empty ids, "stop" with tool calls, <think> in content', async () => {
    await start({ profile: 'llamacpp', script: [{ reasoning: 'Hmm.', toolCalls: [readFile] }] });
    const { chunks } = await readSse(await postChat(server, { stream: true }));
    expect(toolCallDeltas(chunks)[0]).toMatchObject({ index: 0, id: '', function: { name: 'read_file' } });
    expect(joinDeltas(chunks, 'content')).toBe('<think>\nHmm.\n</think>\n\n');
    expect(finishReason(chunks)).toBe('stop');
  });

  it('vllm-reasoning: reasoning in `reasoning`; deepseek: in `reasoning_content`, one id for parallel calls', async () => {
    await start({ profile: 'vllm-reasoning', script: [{ reasoning: 'Think.', text: 'Hi' }] });
    expect(joinDeltas((await readSse(await postChat(server, { stream: true }))).chunks, 'reasoning')).toBe(
      'Think.',
    );
    await server.close();
    await start({
      profile: 'deepseek',
      script: [{ reasoning: 'Think.', toolCalls: [listDirectory, readFile] }],
    });
    const { chunks } = await readSse(await postChat(server, { stream: true }));
    expect(joinDeltas(chunks, 'reasoning_content')).toBe('Think.');
    const ids = toolCallDeltas(chunks).flatMap((delta) => (delta.id === undefined ? [] : [delta.id]));
    expect(ids).toEqual(['call_mock_1', 'call_mock_1']);
  });

  it('deepseek: reasoning must come back with tool-call turns and must not with the others', async () => {
    await start({ profile: 'deepseek', script: [{ text: 'ok', repeat: true }] });
    const call = { id: 'c', type: 'function', function: { name: 'read_file', arguments: '{}' } };
    const conversation = (assistant: Record<string, unknown>) => ({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '', ...assistant },
        { role: 'tool', tool_call_id: 'c', content: 'x' },
      ],
    });
    const missing = await postChat(server, conversation({ tool_calls: [call] }));
    expect(missing.status).toBe(400);
    expect((await readJson(missing)).error.message).toContain(
      'The `reasoning_content` in the thinking mode must be passed back to the API.',
    );
    const echoed = await postChat(server, conversation({ tool_calls: [call], reasoning_content: '' }));
    expect(echoed.status).toBe(200);
    const extra = await postChat(server, {
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello', reasoning_content: 'thought' },
        { role: 'user', content: 'again' },
      ],
    });
    expect(extra.status).toBe(400);
    // A refused request leaves the script alone.
    expect(server.remaining).toBe(1);
  });

  it('openai-reasoning: refuses max_tokens, temperature and unknown fields with a 400 naming them', async () => {
    await start({ profile: 'openai-reasoning', script: [{ reasoning: 'hidden', text: 'Done.' }] });
    const maxTokens = await readJson(await postChat(server, { max_tokens: 100 }));
    expect(maxTokens.error).toEqual({
      message:
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      type: 'invalid_request_error',
      param: 'max_tokens',
      code: 'unsupported_parameter',
    });
    expect((await readJson(await postChat(server, { temperature: 0.2 }))).error.param).toBe('temperature');
    const unknown = await readJson(await postChat(server, { enable_thinking: true }));
    expect(unknown.error.message).toBe('Unrecognized request argument supplied: enable_thinking');
    const taken = await postChat(server, { max_completion_tokens: 100, temperature: 1, stream: true });
    const { chunks } = await readSse(taken);
    expect(joinDeltas(chunks, 'content')).toBe('Done.');
    expect(joinDeltas(chunks, 'reasoning_content')).toBe('');
  });

  it('non-streamed answers follow the profile too', async () => {
    await start({ profile: 'ollama', script: [{ reasoning: 'r', toolCalls: [readFile] }] });
    const body = (await (await postChat(server, {})).json()) as {
      choices: [{ message: Record<string, unknown>; finish_reason: string }];
    };
    expect(body.choices[0].message).toMatchObject({
      reasoning: 'r',
      tool_calls: [{ id: 'call_mock_1', function: { name: 'read_file', arguments: { path: 'a.txt' } } }],
    });
  });

  it('rejects an unknown profile', async () => {
    await expect(startMockModel({ profile: 'nope' as never })).rejects.toThrow(
      /Invalid startMockModel options/,
    );
  });

  it('keel-mock-model --profile serves that profile', async () => {
    const dir = await createTempDir();
    const script = join(dir.path, 'script.json');
    await writeFile(script, JSON.stringify([{ toolCalls: [readFile] }]));
    const bin = fileURLToPath(new URL('../../bin/keel-mock-model.js', import.meta.url));
    const child = spawn(process.execPath, [bin, '--profile', 'llamacpp', '--script', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const url = line.replace('Mock model listening on ', '');
      const answer = await fetch(`${url}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], stream: true }),
      });
      const { chunks } = await readSse(answer);
      expect(toolCallDeltas(chunks)[0]).toMatchObject({ id: '', function: { name: 'read_file' } });
      expect(finishReason(chunks)).toBe('stop');
      const bad = spawn(process.execPath, [bin, '--profile', 'nope'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      bad.stderr.on('data', (data) => {
        stderr += data;
      });
      const [code] = await once(bad, 'exit');
      expect(code).toBe(1);
      expect(stderr).toContain('--profile must be one of openai, ollama,');
    } finally {
      child.kill('SIGTERM');
      await dir.remove();
    }
  });
});
