import { type MockModelOptions, type ScriptedReply, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { checkToolCalling, toolCheckTool } from '../../src/model/index.ts';

// The tool-calling check goes through the model client a run uses: against each profile of the scripted
// model server, a tool call written in the server's own way (streamed whole at index 0, as <tool_call>
// text, with empty ids, after a refused max_tokens) is a tool call.

type Profile = NonNullable<MockModelOptions['profile']>;

const calls: ScriptedReply = {
  toolCalls: [{ name: toolCheckTool.function.name, arguments: { status: 'ready' } }],
};

const profiles: Array<{ profile: Profile; model: string; profileUsed: string }> = [
  { profile: 'openai', model: 'mock-model', profileUsed: 'generic' },
  { profile: 'ollama', model: 'qwen2.5-coder:7b', profileUsed: 'ollama' },
  { profile: 'vllm-hermes', model: 'NousResearch/Hermes-3-Llama-3.1-8B', profileUsed: 'generic' },
  { profile: 'llamacpp', model: 'qwen3-8b.gguf', profileUsed: 'generic' },
  { profile: 'lmstudio', model: 'qwen/qwen3-8b', profileUsed: 'generic' },
  { profile: 'deepseek', model: 'deepseek-chat', profileUsed: 'deepseek' },
  // Refuses max_tokens: the client sends max_completion_tokens again, as in a run.
  { profile: 'openai-reasoning', model: 'o4-mini', profileUsed: 'openai-reasoning' },
];

describe('checkToolCalling', () => {
  test.each(profiles)(
    '$profile: the model calls the tool, so tool calling works',
    async ({ profile, model, profileUsed }) => {
      await using server = await startMockModel({ profile, script: [calls] });
      const check = await checkToolCalling({ model, baseURL: server.url, apiKey: 'no-key' });
      expect(check).toEqual({ verdict: 'works', profile: profileUsed });
      const sent = server.chatRequests.at(-1);
      expect(sent?.tools).toEqual([toolCheckTool]);
      expect(sent?.max_tokens ?? sent?.max_completion_tokens).toBe(512);
    },
  );

  test('the server refuses tools for the model (Ollama): refused, with the error naming the model', async () => {
    await using server = await startMockModel({ profile: 'ollama', script: [calls] });
    const check = await checkToolCalling({ model: 'gemma3:1b', baseURL: server.url, apiKey: 'no-key' });
    expect(check.verdict).toBe('refused');
    expect(check.error?.code).toBe('MODEL_ERROR');
    expect(check.error?.message).toContain('The model "gemma3:1b"');
    expect(check.said).toBe('registry.ollama.ai/library/gemma3:1b does not support tools');
    // Refused before the script was asked: the reply is still there.
    expect(server.remaining).toBe(1);
  });

  test('an answer in text without a call: text, with what it said and why it stopped', async () => {
    await using server = await startMockModel({ script: [{ text: 'Status: ready.\nAnything else?' }] });
    const check = await checkToolCalling({ model: 'mock-model', baseURL: server.url, apiKey: 'no-key' });
    expect(check).toEqual({
      verdict: 'text',
      profile: 'generic',
      said: 'Status: ready.',
      finishReason: 'stop',
    });
  });

  test('another failure: failed, with the KeelError; an answer that never comes is cut at the timeout', async () => {
    await using server = await startMockModel({
      script: [
        { error: { status: 404, message: 'The model `nope` does not exist' } },
        { text: 'never', until: new Promise(() => {}) },
      ],
    });
    const missing = await checkToolCalling({ model: 'nope', baseURL: server.url, apiKey: 'no-key' });
    expect(missing).toMatchObject({ verdict: 'failed', error: { code: 'MODEL_ERROR' } });
    expect(missing.said).toContain('answered HTTP 404');

    const slow = await checkToolCalling(
      { model: 'mock-model', baseURL: server.url, apiKey: 'no-key' },
      { timeoutMs: 200 },
    );
    expect(slow).toMatchObject({
      verdict: 'failed',
      said: 'The model "mock-model" did not answer the tool-calling check within 0.2 s.',
    });
  });
});
