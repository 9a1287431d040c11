import { type MockModelOptions, type ScriptedReply, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { ContentSplitter } from '../../src/model/content-splitter.ts';
import type { ChatMessage, ModelTool } from '../../src/model/index.ts';
import { ModelClient, resolveProfile } from '../../src/model/index.ts';
import { repairArguments } from '../../src/model/tool-arguments.ts';

// Each quirk of a real server, handled in the model client and nowhere else: a turn against the scripted
// model server in that server's profile (packages/testkit/src/mock-model/profiles.ts has the sources).

const tool = (name: string): ModelTool => ({
  type: 'function',
  function: { name, description: name, parameters: { type: 'object', properties: {} } },
});
const tools = [tool('read_file'), tool('list_directory'), tool('edit_file')];
const ask: ChatMessage[] = [{ role: 'user', content: 'go' }];
const readA = { name: 'read_file', arguments: { path: 'a.txt' } };
const readB = { name: 'read_file', arguments: { path: 'b.txt' } };

/** One streamed turn against a server in `profile`, with what was shown while it streamed. */
async function turn(
  options: MockModelOptions & { script: ScriptedReply[] },
  client: Partial<ConstructorParameters<typeof ModelClient>[0]> = {},
) {
  await using server = await startMockModel(options);
  const model = new ModelClient({ model: 'some-model', apiKey: 'no-key', baseURL: server.url, ...client });
  const shown = { text: [] as string[], thinking: [] as string[] };
  const result = await model.turn(ask, tools, {
    onText: (delta) => void shown.text.push(delta),
    onThinking: (delta) => void shown.thinking.push(delta),
  });
  return { result, shown, requests: [...server.chatRequests] };
}

describe('tool calls, however the server streams them', () => {
  test('whole calls all at index 0 (Ollama) are separate calls; object arguments become JSON text', async () => {
    const { result } = await turn({ profile: 'ollama', script: [{ toolCalls: [readA, readB] }] });
    expect(result.toolCalls).toEqual([
      { id: 'call_mock_1', name: 'read_file', arguments: '{"path":"a.txt"}' },
      { id: 'call_mock_2', name: 'read_file', arguments: '{"path":"b.txt"}' },
    ]);
  });

  test('calls without index and finish_reason "stop" (older Ollama) are tool calls', async () => {
    const { result } = await turn({ profile: 'ollama-legacy', script: [{ toolCalls: [readA, readB] }] });
    expect(result.toolCalls.map((call) => call.arguments)).toEqual(['{"path":"a.txt"}', '{"path":"b.txt"}']);
    expect(result.finishReason).toBe('tool_calls');
  });

  test('empty ids (llama.cpp) and one id for every call (DeepSeek) become unique ids', async () => {
    for (const profile of ['llamacpp', 'deepseek'] as const) {
      const { result } = await turn({ profile, script: [{ toolCalls: [readA, readB, readA] }] });
      const ids = result.toolCalls.map((call) => call.id);
      expect(new Set(ids).size).toBe(3);
      for (const id of ids) expect(id).toMatch(/^\w+$/);
    }
  });

  test('<tool_call> text (Hermes, Qwen without a tool parser) becomes tool calls, out of the answer', async () => {
    const { result, shown } = await turn({
      profile: 'vllm-hermes',
      chunkSize: 1,
      script: [{ text: 'Reading both.', toolCalls: [readA, readB] }],
    });
    expect(result.toolCalls.map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      { name: 'read_file', args: '{"path":"a.txt"}' },
      { name: 'read_file', args: '{"path":"b.txt"}' },
    ]);
    expect(result.text).toBe('Reading both.');
    expect(shown.text.join('')).not.toContain('<');
    expect(result.finishReason).toBe('tool_calls');
  });

  test('a <tool_call> block naming no offered tool stays text; the OpenAI profile reads none at all', async () => {
    const unknown = await turn({
      profile: 'qwen',
      script: [{ toolCalls: [{ name: 'delete_everything', arguments: {} }] }],
    });
    expect(unknown.result.toolCalls).toEqual([]);
    expect(unknown.result.text).toContain('<tool_call>');
    const openai = await turn(
      { script: [{ text: '<tool_call>{"name": "read_file", "arguments": {}}</tool_call>' }] },
      { profile: 'openai' },
    );
    expect(openai.result.toolCalls).toEqual([]);
  });

  test('arguments in single quotes, with trailing text or a missing brace are repaired on the way in', async () => {
    const { result } = await turn({
      profile: 'llamacpp',
      script: [
        {
          toolCalls: [
            { name: 'read_file', arguments: "{'path': 'a.txt', 'all': True}" },
            { name: 'read_file', arguments: '{"path": "b.txt"} and that is all' },
            { name: 'read_file', arguments: '{"path": "c.txt"' },
          ],
        },
      ],
    });
    expect(result.toolCalls.map((call) => JSON.parse(call.arguments))).toEqual([
      { path: 'a.txt', all: true },
      { path: 'b.txt' },
      { path: 'c.txt' },
    ]);
  });

  test('what cannot be repaired safely goes to the model as it was written', async () => {
    const { result } = await turn({
      script: [
        {
          toolCalls: [{ name: 'read_file', arguments: '{"path": "a.txt"' }],
          // Cut short at the token limit: more than a brace may be missing.
          finishReason: 'length',
        },
      ],
    });
    expect(result.toolCalls[0]?.arguments).toBe('{"path": "a.txt"');
    expect(repairArguments('{"path": "a"} {"path": "b"}', false)).toBe('{"path": "a"} {"path": "b"}');
    expect(repairArguments('{"path": "a', false)).toBe('{"path": "a');
    expect(repairArguments('{"path": a.txt}', false)).toBe('{"path": a.txt}');
  });
});

describe('tool calls written as text by Mistral, Llama 3 and fine-tunes', () => {
  const calls = (result: { toolCalls: Array<{ name: string; arguments: string }> }) =>
    result.toolCalls.map(({ name, arguments: args }) => ({ name, args: JSON.parse(args) as unknown }));

  test.each([
    ['[TOOL_CALLS]name[ARGS]{…} (Mistral tokenizer v11+)', 'mistral'],
    ['[TOOL_CALLS] [{…}, …] (Mistral tokenizer v2–v7)', 'mistral-v3'],
  ] as const)('%s become tool calls, out of the answer', async (_, profile) => {
    const { result, shown } = await turn({
      profile,
      chunkSize: 1,
      script: [{ text: 'Reading both.', toolCalls: [readA, readB] }],
    });
    expect(calls(result)).toEqual([
      { name: 'read_file', args: { path: 'a.txt' } },
      { name: 'read_file', args: { path: 'b.txt' } },
    ]);
    expect(result.text).toBe('Reading both.');
    expect(shown.text.join('')).toBe('Reading both.');
    expect(result.finishReason).toBe('tool_calls');
  });

  test('[TOOL_CALLS] with a call id, without [ARGS], or naming no offered tool', async () => {
    const { result } = await turn({
      script: [
        {
          text:
            '[TOOL_CALLS]read_file[CALL_ID]a1b2c3d4e[ARGS]{"path": "a.txt"}[TOOL_CALLS]read_file{"path": "b.txt"}' +
            '[TOOL_CALLS]format_disk[ARGS]{}',
        },
      ],
    });
    expect(calls(result)).toEqual([
      { name: 'read_file', args: { path: 'a.txt' } },
      { name: 'read_file', args: { path: 'b.txt' } },
    ]);
    expect(result.text).toBe('[TOOL_CALLS]format_disk[ARGS]{}');
    // OpenAI's models write no such token: the text is theirs.
    const openai = await turn({ script: [{ text: '[TOOL_CALLS]read_file[ARGS]{}' }] }, { profile: 'openai' });
    expect(openai.result).toMatchObject({ text: '[TOOL_CALLS]read_file[ARGS]{}', toolCalls: [] });
  });

  test.each([
    ['{"name", "parameters"} answers (Llama 3.x JSON tool template)', 'llama3-json'],
    ['```json fenced {"name", "arguments"} answers (Qwen2.5-Coder, fine-tunes)', 'fenced-json'],
  ] as const)('%s become tool calls, never shown as text', async (_, profile) => {
    const { result, shown } = await turn({ profile, chunkSize: 2, script: [{ toolCalls: [readA, readB] }] });
    expect(calls(result)).toEqual([
      { name: 'read_file', args: { path: 'a.txt' } },
      { name: 'read_file', args: { path: 'b.txt' } },
    ]);
    expect(result.text).toBe('');
    expect(shown.text).toEqual([]);
    expect(result.finishReason).toBe('tool_calls');
  });

  test('JSON is a call only when it is the whole answer, names an offered tool and has object arguments', async () => {
    const call = '```json\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n```';
    const answers = [
      // A call shown to the user, with words around it.
      `To read it, I would send:\n\n${call}`,
      `${call}\n\nThat is how you call it.`,
      // JSON that happens to have a name: a package.json.
      '```json\n{"name": "my-app", "arguments": {"x": 1}}\n```',
      '{"name": "read_file", "arguments": "a.txt"}',
      '```js\n{"name": "read_file", "arguments": {}}\n```',
    ];
    for (const text of answers) {
      const { result, shown } = await turn({ chunkSize: 3, script: [{ text }] });
      expect(result).toMatchObject({ text, toolCalls: [], finishReason: 'stop' });
      expect(shown.text.join('')).toBe(text);
    }
    const bare = await turn({
      script: [{ text: '<|python_tag|>{"name": "read_file", "parameters": {"path": "a.txt"}}' }],
    });
    expect(calls(bare.result)).toEqual([{ name: 'read_file', args: { path: 'a.txt' } }]);
    // Mistral's list, its [TOOL_CALLS] token dropped as a special token (vLLM's default without a parser).
    const list = await turn({
      script: [
        {
          text: ' [{"name": "read_file", "arguments": {"path": "a.txt"}}, {"name": "list_directory", "arguments": {}}]',
        },
      ],
    });
    expect(calls(list.result)).toEqual([
      { name: 'read_file', args: { path: 'a.txt' } },
      { name: 'list_directory', args: {} },
    ]);
    // OpenAI's profile reads no text as calls.
    const openai = await turn({ script: [{ text: call }] }, { profile: 'openai' });
    expect(openai.result).toMatchObject({ text: call, toolCalls: [] });
  });

  test('an answer held back as a possible call streams on as soon as it cannot be one', async () => {
    const text =
      '```json\n{"name": "my-app", "version": "1.0.0"}\n```\n\nThis is your package.json, as it stands.';
    const { shown } = await turn({ chunkSize: 2, script: [{ text }] });
    expect(shown.text.join('')).toBe(text);
    // The block went out whole once it was closed; the words after it streamed as they came.
    expect(shown.text.length).toBeGreaterThan(10);
    const plain = await turn({ chunkSize: 2, script: [{ text: 'Hello there, world.' }] });
    expect(plain.shown.text[0]).toBe('He');
  });
});

describe('R1 distills, whose template opens <think> in the prompt', () => {
  const reasoning = 'The user wants a greeting.';
  const answer = 'Hello!';
  const r1 = 'deepseek-ai/DeepSeek-R1-Distill-Qwen-7B';

  test('reasoning before a </think> with no <think> streams as thinking from its first word', async () => {
    const { result, shown } = await turn(
      { profile: 'r1-distill', chunkSize: 2, script: [{ reasoning, text: answer }] },
      { model: r1 },
    );
    expect(result).toMatchObject({ text: answer, reasoning: `${reasoning}\n` });
    expect(shown.text.join('')).toBe(answer);
    expect(shown.thinking.join('')).toBe(`${reasoning}\n`);
  });

  test('a model whose name says nothing: the turn is right in the end, though it streamed as text', async () => {
    const { result, shown } = await turn({ profile: 'r1-distill', script: [{ reasoning, text: answer }] });
    expect(result).toMatchObject({ text: answer, reasoning: `${reasoning}\n` });
    expect(shown.text.join('')).toContain(reasoning);
  });

  test('a distill that did not think, or whose server split the thinking out, answers as text', async () => {
    // No </think> at all: what streamed as thinking was the answer.
    const quiet = await turn({ script: [{ text: answer }] }, { model: r1 });
    expect(quiet.result).toMatchObject({ text: answer, reasoning: '' });
    expect(quiet.shown.text.join('')).toBe(answer);
    // Cut off at the token limit mid-thought, it stays thinking.
    const cut = await turn({ script: [{ text: 'Let me see', finishReason: 'length' }] }, { model: r1 });
    expect(cut.result).toMatchObject({ text: '', reasoning: 'Let me see' });
    // A reasoning parser sent the thinking in a field: the content is the answer from its first word.
    const parsed = await turn(
      { profile: 'vllm-reasoning', chunkSize: 2, script: [{ reasoning, text: answer }] },
      { model: r1 },
    );
    expect(parsed.result).toMatchObject({ text: answer, reasoning });
    expect(parsed.shown.thinking.join('')).toBe(reasoning);
  });

  test('which models start in the thinking', () => {
    const starts = (baseURL: string, model: string) => resolveProfile(baseURL, model).startsInThinking;
    expect(starts('http://localhost:8000/v1', r1)).toBe(true);
    expect(starts('http://localhost:8080/v1', 'Qwen/QwQ-32B')).toBe(true);
    expect(starts('http://10.0.0.5:9000/v1', 'Qwen/Qwen3-30B-A3B-Thinking-2507')).toBe(true);
    expect(starts('http://10.0.0.5:9000/v1', 'Qwen/QwQ-32B-Preview')).toBe(false);
    expect(starts('http://10.0.0.5:9000/v1', 'Qwen/Qwen3-8B')).toBe(false);
    // Ollama's own templates leave <think> to the model; OpenAI reads no tags at all.
    expect(starts('http://localhost:11434/v1', 'deepseek-r1:8b')).toBe(false);
    expect(resolveProfile('https://api.openai.com/v1', r1).startsInThinking).toBe(false);
  });
});

describe('reasoning, wherever the server puts it, is thinking and never answer text', () => {
  test.each([
    ['reasoning_content (DeepSeek)', 'deepseek'],
    ['reasoning (Ollama, vLLM 0.11+)', 'vllm-reasoning'],
    ['<think> in content (llama.cpp, Qwen3, LM Studio)', 'llamacpp'],
  ] as const)('%s', async (_, profile) => {
    const { result, shown } = await turn({
      profile,
      chunkSize: 2,
      script: [{ reasoning: 'Is 9.11 > 9.8? No.', text: '9.8 is greater.' }],
    });
    expect(result.reasoning.trim()).toBe('Is 9.11 > 9.8? No.');
    expect(result.text).toBe('9.8 is greater.');
    expect(shown.text.join('')).toBe('9.8 is greater.');
    expect(shown.thinking.join('').trim()).toBe('Is 9.11 > 9.8? No.');
  });

  test('implicit thinking, a late </think> and [TOOL_CALLS] are found wherever the content is cut', () => {
    const cases = [
      { content: 'plan</think>\n\nAnswer.', startsInThinking: true, want: ['plan', 'Answer.', ''] },
      { content: ' <think>plan</think>Answer.', startsInThinking: true, want: ['plan', 'Answer.', ''] },
      {
        content: 'Reading.[TOOL_CALLS]read_file[ARGS]{}',
        startsInThinking: false,
        want: ['', 'Reading.', 'read_file[ARGS]{}'],
      },
    ];
    for (const { content, startsInThinking, want } of cases) {
      for (let cut = 0; cut <= content.length; cut++) {
        const splitter = new ContentSplitter({ thinkTags: true, textToolCalls: true, startsInThinking });
        const pieces = [
          ...splitter.push(content.slice(0, cut)),
          ...splitter.push(content.slice(cut)),
          ...splitter.finish(),
        ];
        const joined = (kind: string) =>
          pieces.flatMap((piece) => (piece.kind === kind ? [piece.text] : [])).join('');
        expect([joined('thinking'), joined('text'), joined('mistral_calls')]).toEqual(want);
      }
    }
    const late = new ContentSplitter({ thinkTags: true, textToolCalls: true });
    expect([...late.push('plan</th'), ...late.push('ink> Answer.'), ...late.finish()]).toEqual([
      { kind: 'text', text: 'plan' },
      { kind: 'answer_was_thinking', text: '' },
      { kind: 'text', text: 'Answer.' },
    ]);
  });

  test('tags cut anywhere between two pieces of content are still found', () => {
    const content = '<think>plan</think>\n\nAnswer <b>x</b>.\n<tool_call>{"name": "read_file"}</tool_call>';
    for (let cut = 0; cut <= content.length; cut++) {
      const splitter = new ContentSplitter({ thinkTags: true, textToolCalls: true });
      const pieces = [
        ...splitter.push(content.slice(0, cut)),
        ...splitter.push(content.slice(cut)),
        ...splitter.finish(),
      ];
      const joined = (kind: string) =>
        pieces.flatMap((piece) => (piece.kind === kind ? [piece.text] : [])).join('');
      expect([joined('thinking'), joined('text'), joined('tool_call')]).toEqual([
        'plan',
        'Answer <b>x</b>.\n',
        '{"name": "read_file"}',
      ]);
    }
  });

  test('text that only mentions <think> later is the answer', async () => {
    const { result } = await turn({ script: [{ text: 'Use <think> tags.' }] });
    expect(result).toMatchObject({ text: 'Use <think> tags.', reasoning: '' });
  });
});

describe('a 400 naming a refused field is retried once without it, and remembered', () => {
  test('max_tokens goes as max_completion_tokens, temperature and unknown fields are dropped', async () => {
    await using server = await startMockModel({
      profile: 'openai-reasoning',
      script: [{ text: 'one', repeat: true }],
    });
    // A name no rule knows, so the client learns from the 400s (an o3 behind a gateway, say).
    const settings = {
      model: 'house-reasoner',
      apiKey: 'no-key',
      baseURL: server.url,
      maxOutputTokens: 500,
      temperature: 0.2,
      enableThinking: true,
    };
    const first = await new ModelClient(settings).turn(ask, tools);
    expect(first.text).toBe('one');
    const sent = server.chatRequests.map((request) =>
      Object.keys(request).filter(
        (key) => !['model', 'messages', 'stream', 'stream_options', 'tools'].includes(key),
      ),
    );
    expect(sent).toEqual([
      ['enable_thinking', 'max_tokens', 'temperature'],
      ['max_tokens', 'temperature'],
      ['max_completion_tokens', 'temperature'],
      ['max_completion_tokens'],
    ]);
    expect(server.chatRequests.at(-1)?.max_completion_tokens).toBe(500);
    // A later client for the same endpoint and model (the next run) sends what works at once.
    await new ModelClient(settings).turn(ask, tools);
    expect(server.chatRequests).toHaveLength(5);
    expect(Object.keys(server.chatRequests[4]!)).not.toContain('temperature');
  });

  test('a refusal naming no field of ours, or the same field again, is an error', async () => {
    await using server = await startMockModel({
      script: [{ error: { status: 400, message: "Invalid value for 'messages'" } }],
    });
    const client = new ModelClient({
      model: 'm',
      apiKey: 'no-key',
      baseURL: server.url,
      retry: { maxAttempts: 1 },
    });
    await expect(client.turn(ask, tools)).rejects.toThrow(/messages/);
    expect(server.chatRequests).toHaveLength(1);
  });
});

describe('the profile comes from the endpoint and the model, or from model_profile', () => {
  test.each([
    ['http://localhost:11434/v1', 'llama3.1', 'ollama'],
    ['http://localhost:8000/v1', 'Qwen/Qwen3-8B', 'vllm'],
    ['http://localhost:8080/v1', 'any', 'llamacpp'],
    ['http://localhost:1234/v1', 'qwen/qwen3-8b', 'lmstudio'],
    ['https://api.deepseek.com', 'deepseek-chat', 'deepseek'],
    ['https://api.openai.com/v1', 'gpt-4.1', 'openai'],
    ['https://api.openai.com/v1', 'o3-mini', 'openai-reasoning'],
    ['https://gateway.example/v1', 'openai/gpt-5-mini', 'openai-reasoning'],
    ['http://10.0.0.5:9000/v1', 'qwen2.5-coder:7b', 'ollama'],
    ['http://10.0.0.5:9000/v1', 'my-model', 'generic'],
  ])('%s %s → %s', (baseURL, model, profile) => {
    expect(resolveProfile(baseURL, model).name).toBe(profile);
  });

  test('model_profile wins', () => {
    expect(resolveProfile('http://localhost:11434/v1', 'x', 'deepseek').name).toBe('deepseek');
    expect(new ModelClient({ model: 'x', apiKey: 'k', profile: 'vllm' }).profile.name).toBe('vllm');
  });
});
