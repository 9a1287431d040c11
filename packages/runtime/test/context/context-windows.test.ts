import { describe, expect, test } from 'vitest';
import {
  contextLimit,
  contextWindowOf,
  resolveContextBudget,
  unknownModelContextWindow,
} from '../../src/context/index.ts';

describe('context windows', () => {
  test('well-known families are found by name, variant, provider prefix or local tag', () => {
    expect(contextWindowOf('gpt-4o')).toBe(128_000);
    expect(contextWindowOf('gpt-4o-mini-2024-07-18')).toBe(128_000);
    expect(contextWindowOf('openai/gpt-4.1-mini')).toBe(1_047_576);
    expect(contextWindowOf('gpt-4')).toBe(8_192);
    expect(contextWindowOf('o3-mini')).toBe(200_000);
    expect(contextWindowOf('o4-mini-2025-04-16')).toBe(200_000);
    expect(contextWindowOf('claude-sonnet-4-20250514')).toBe(200_000);
    expect(contextWindowOf('anthropic/claude-3-5-haiku')).toBe(200_000);
    expect(contextWindowOf('gemini-2.5-pro')).toBe(1_048_576);
    expect(contextWindowOf('gemini-1.5-pro-002')).toBe(2_097_152);
    expect(contextWindowOf('Qwen/Qwen2.5-72B-Instruct')).toBe(32_768);
    expect(contextWindowOf('qwen3-coder-480b-a35b')).toBe(262_144);
    expect(contextWindowOf('llama3.1:8b')).toBe(128_000);
    expect(contextWindowOf('meta-llama/Llama-3.1-70B-Instruct')).toBe(128_000);
    expect(contextWindowOf('llama3:8b')).toBe(8_192);
    expect(contextWindowOf('deepseek-chat')).toBe(128_000);
  });

  test('an unknown model gets the conservative default; a name is not a prefix of another word', () => {
    expect(contextWindowOf('my-finetune')).toBe(unknownModelContextWindow);
    expect(contextWindowOf('gpt-4oops')).toBe(unknownModelContextWindow);
    expect(unknownModelContextWindow).toBeLessThanOrEqual(32_768);
  });

  test('configured windows come first, by name or variant, whatever the letter case', () => {
    const windows = { 'gpt-4o': 50_000, 'My-Model': 4096 };
    expect(contextWindowOf('gpt-4o-2024-08-06', windows)).toBe(50_000);
    expect(contextWindowOf('my-model:latest', windows)).toBe(4096);
    expect(contextWindowOf('claude-opus-4', windows)).toBe(200_000);
  });

  test('the budget: threshold of the window, configured or by default; off when disabled', () => {
    const budget = resolveContextBudget('gpt-4o', undefined)!;
    expect(budget).toEqual({ window: 128_000, threshold: 0.8, keep_tool_outputs: 3 });
    expect(contextLimit(budget)).toBe(102_400);
    expect(
      resolveContextBudget('local', { windows: { local: 8000 }, threshold: 0.5, keep_tool_outputs: 1 }),
    ).toEqual({ window: 8000, threshold: 0.5, keep_tool_outputs: 1 });
    expect(resolveContextBudget('gpt-4o', { enabled: false })).toBeNull();
  });
});
