import { describe, expect, test } from 'vitest';
import { costOf, priceOf } from '../../src/model/index.ts';

describe('model prices', () => {
  test('a dated or provider-prefixed name is priced as its model; the longest match wins', () => {
    expect(priceOf('gpt-4o')).toEqual({ input_per_million: 2.5, output_per_million: 10 });
    expect(priceOf('gpt-4o-2024-08-06')).toEqual(priceOf('gpt-4o'));
    expect(priceOf('gpt-4o-mini-2024-07-18')).toEqual({ input_per_million: 0.15, output_per_million: 0.6 });
    expect(priceOf('openai/gpt-4.1-mini')).toEqual({ input_per_million: 0.4, output_per_million: 1.6 });
    expect(priceOf('claude-opus-4-5-20251101')).toEqual({ input_per_million: 5, output_per_million: 25 });
    expect(priceOf('claude-sonnet-4-20250514')).toEqual({ input_per_million: 3, output_per_million: 15 });
  });

  test('unknown models are unpriced, and a name is not a prefix of another word', () => {
    expect(priceOf('llama3.1:8b')).toBeNull();
    expect(priceOf('gpt-4oops')).toBeNull();
    expect(priceOf('o3x')).toBeNull();
  });

  test('configured prices come first and can price a local model', () => {
    const configured = {
      'gpt-4o': { input_per_million: 1, output_per_million: 1 },
      'my-model': { input_per_million: 0.5, output_per_million: 2 },
    };
    expect(priceOf('gpt-4o-2024-08-06', configured)).toEqual({ input_per_million: 1, output_per_million: 1 });
    expect(priceOf('my-model:latest', configured)).toEqual({ input_per_million: 0.5, output_per_million: 2 });
  });

  test('a turn costs its input and output tokens at their prices; unpriced turns cost nothing', () => {
    const price = { input_per_million: 3, output_per_million: 15 };
    expect(costOf(price, { input_tokens: 1_000_000, output_tokens: 0 })).toBe(3);
    expect(costOf(price, { input_tokens: 2000, output_tokens: 1000 })).toBeCloseTo(0.021, 10);
    expect(costOf(null, { input_tokens: 5000, output_tokens: 5000 })).toBe(0);
  });
});
