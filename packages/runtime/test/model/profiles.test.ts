import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, type MockModelOptions, type ScriptedReply, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { createRuntime, type RuntimeEvent } from '../../src/index.ts';
import { resolveProfile } from '../../src/model/index.ts';
import { TurnAssembler } from '../../src/model/turn-assembler.ts';

// The foundation scenario (the agent reads, looks around, fixes a file with edit_file and answers)
// against every profile of the scripted model server: each writes chat completions as a real server
// family does (packages/testkit/src/mock-model/profiles.ts cites the docs and source of each behaviour).

type Profile = NonNullable<MockModelOptions['profile']>;

/** Each profile with a model name its users would have: what the client's profile is chosen from. */
const matrix: Array<{ profile: Profile; model: string; thinkingShown: boolean }> = [
  { profile: 'openai', model: 'mock-model', thinkingShown: true },
  { profile: 'ollama', model: 'qwen2.5-coder:7b', thinkingShown: true },
  { profile: 'ollama-legacy', model: 'llama3.1:8b', thinkingShown: true },
  { profile: 'vllm-hermes', model: 'NousResearch/Hermes-3-Llama-3.1-8B', thinkingShown: true },
  { profile: 'qwen', model: 'Qwen/Qwen3-8B', thinkingShown: true },
  { profile: 'vllm-reasoning', model: 'Qwen/Qwen3-8B', thinkingShown: true },
  { profile: 'llamacpp', model: 'ggml-org/Qwen3-8B-GGUF', thinkingShown: true },
  { profile: 'lmstudio', model: 'qwen/qwen3-8b', thinkingShown: true },
  { profile: 'deepseek', model: 'deepseek-reasoner', thinkingShown: true },
  // OpenAI's chat completions never return the reasoning.
  { profile: 'openai-reasoning', model: 'o3-mini', thinkingShown: false },
  // Models writing their calls as text, served without a parser: they do not reason.
  { profile: 'mistral', model: 'mistralai/Devstral-Small-2505', thinkingShown: false },
  { profile: 'mistral-v3', model: 'mistralai/Mistral-7B-Instruct-v0.3', thinkingShown: false },
  { profile: 'llama3-json', model: 'meta-llama/Llama-3.1-8B-Instruct', thinkingShown: false },
  { profile: 'fenced-json', model: 'Qwen/Qwen2.5-Coder-14B-Instruct', thinkingShown: false },
  // The template opens <think> in the prompt: the model's name says so.
  { profile: 'r1-distill', model: 'deepseek-ai/DeepSeek-R1-Distill-Qwen-7B', thinkingShown: true },
];

const answer = 'I changed the greeting in greet.js to say "Hello, world".';

/** Reads the file and the folder in parallel, edits the file, answers: each step with reasoning. */
const script: ScriptedReply[] = [
  {
    reasoning: 'The greeting is in greet.js; look at it and around it.',
    toolCalls: [
      { name: 'read_file', arguments: { path: 'greet.js' } },
      { name: 'list_directory', arguments: { path: '.' } },
    ],
  },
  {
    when: { lastRole: 'tool' },
    reasoning: 'Replace the string.',
    toolCalls: [
      { name: 'edit_file', arguments: { path: 'greet.js', old_text: "'Hello'", new_text: "'Hello, world'" } },
    ],
  },
  { when: { lastRole: 'tool' }, reasoning: 'Done; say so.', text: answer },
];

async function runAgainst(profile: Profile, model: string, options: { enableThinking?: boolean } = {}) {
  await using server = await startMockModel({ profile, script, chunkSize: 3 });
  const runtimeDir = await mkdtemp(join(tmpdir(), 'keel-profiles-'));
  const repo = await createTempGitRepo({ files: { 'greet.js': "export const greet = () => 'Hello';\n" } });
  const runtime = createRuntime({
    runtimeDir,
    model,
    modelBaseUrl: server.url,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    env: {},
    ...options,
  });
  try {
    const events: RuntimeEvent[] = [];
    const result = await runtime.run(
      { workdir: repo.path, prompt: 'Make the greeting say hello world' },
      { onEvent: (event) => void events.push(event) },
    );
    return {
      result,
      events,
      requests: [...server.chatRequests],
      file: await readFile(join(repo.path, 'greet.js'), 'utf8'),
    };
  } finally {
    await runtime.close();
    await repo.remove();
    await rm(runtimeDir, { recursive: true, force: true });
  }
}

describe('the agent fixes a file against every server profile (streaming)', () => {
  test.each(matrix)('$profile ($model)', async ({ profile, model, thinkingShown }) => {
    const { result, events, requests, file } = await runAgainst(profile, model);
    expect(file).toBe("export const greet = () => 'Hello, world';\n");
    expect(result).toMatchObject({ status: 'success', output: answer });
    expect(result.tool_traces.map((trace) => trace.tool_name)).toEqual([
      'read_file',
      'list_directory',
      'edit_file',
    ]);
    for (const trace of result.tool_traces) expect(trace.result).not.toMatch(/^Error/);

    // Thinking is shown as thinking and never leaks into the answer, whatever field or tag carried it.
    const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.content] : [])).join('');
    expect(text).toBe(answer);
    const thinking = events.flatMap((event) => (event.type === 'thinking' ? [event.content] : [])).join('');
    if (thinkingShown) {
      expect(thinking).toContain('The greeting is in greet.js; look at it and around it.');
      expect(thinking).toContain('Replace the string.');
    } else {
      expect(thinking).toBe('');
    }
    expect(`${text}${thinking}`).not.toMatch(/<\/?think>|<\/?tool_call>|\[TOOL_CALLS]|"parameters"|```/);

    // The parallel calls got ids of their own, and each result went back under its call's id.
    const calls = events.flatMap((event) => (event.type === 'tool_call' ? [event.tool_call_id] : []));
    expect(new Set(calls).size).toBe(3);
    const second = requests[1]!.messages!;
    const assistant = second.find((message) => message.role === 'assistant') as {
      tool_calls: Array<{ id: string }>;
    };
    const results = second
      .filter((message) => message.role === 'tool')
      .map((message) => message.tool_call_id);
    expect(results).toEqual(assistant.tool_calls.map((call) => call.id));
    // No request was refused: three turns, three requests.
    expect(requests).toHaveLength(3);
  });

  test('deepseek: reasoning goes back with the tool-calling turns only, as its API requires', async () => {
    const { requests } = await runAgainst('deepseek', 'deepseek-reasoner');
    const assistants = requests[2]!.messages!.filter((message) => message.role === 'assistant');
    expect(assistants.map((message) => message.reasoning_content)).toEqual([
      'The greeting is in greet.js; look at it and around it.',
      'Replace the string.',
    ]);
    // Other servers get no reasoning back at all.
    const other = await runAgainst('vllm-reasoning', 'Qwen/Qwen3-8B');
    expect(other.requests[2]!.messages!.some((message) => 'reasoning_content' in message)).toBe(false);
  });

  test('openai-reasoning: fields its models refuse are not sent to a model known to refuse them', async () => {
    const { requests } = await runAgainst('openai-reasoning', 'o3-mini', { enableThinking: true });
    expect(requests).toHaveLength(3);
    expect(requests.some((request) => 'enable_thinking' in request)).toBe(false);
  });
});

// Keel's model client always streams (client.ts: `stream: true`, compaction included), so a non-streamed
// turn never reaches it; the profiles still answer `stream: false` as their servers do, and a whole
// message read as one delta assembles to the same turn as its stream.
describe('every profile answers a non-streamed request as it streams', () => {
  const tools = new Set(['read_file', 'list_directory', 'edit_file']);

  /** One reply of the script, streamed or not, assembled as the client assembles a turn. */
  async function assembled(profile: Profile, model: string, reply: ScriptedReply, stream: boolean) {
    await using server = await startMockModel({ profile, chunkSize: 3, script: [{ ...reply, when: {} }] });
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'go' }], stream }),
    });
    const shown: string[] = [];
    const turn = new TurnAssembler(resolveProfile(server.url, model), tools, {
      onText: (delta) => void shown.push(delta),
    });
    if (stream) {
      for (const event of (await response.text()).split('\n\n')) {
        const data = event.slice('data: '.length);
        if (event.startsWith('data: ') && data !== '[DONE]') await turn.add(JSON.parse(data));
      }
    } else {
      const completion = (await response.json()) as {
        choices: Array<{ message: Record<string, unknown>; finish_reason: string }>;
      };
      const { message, finish_reason } = completion.choices[0]!;
      await turn.add({ choices: [{ index: 0, delta: message, finish_reason }] } as never);
    }
    const { toolCalls, usage: _usage, ...rest } = await turn.finish();
    return {
      ...rest,
      shown: shown.join(''),
      calls: toolCalls.map(({ name, arguments: args }) => ({ name, args })),
    };
  }

  test.each(matrix)('$profile ($model)', async ({ profile, model }) => {
    for (const reply of script) {
      const streamed = await assembled(profile, model, reply, true);
      const whole = await assembled(profile, model, reply, false);
      expect(whole).toEqual(streamed);
      expect(whole.text).toBe(reply.text ?? '');
      expect(whole.calls.map((call) => call.name)).toEqual((reply.toolCalls ?? []).map((call) => call.name));
      expect(whole.finishReason).toBe(reply.toolCalls ? 'tool_calls' : 'stop');
    }
  });
});
