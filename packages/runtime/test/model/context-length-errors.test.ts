import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import type { KeelError } from '../../src/index.ts';
import { mapModelError } from '../../src/model/map-error.ts';

// What the model client reads from a context-length refusal: the reason the agent compacts on, and the
// window when the server gives it (the agent remembers it). The wordings are run end to end, one by one,
// in test/agent/context-length-compaction.test.ts.

const endpoint = { baseURL: 'http://127.0.0.1:8080/v1', model: 'qwen3:8b', keyed: false };
const refusal = (status: number, error: Record<string, unknown>) =>
  mapModelError(
    OpenAI.APIError.generate(status, { error }, undefined, new Headers()),
    undefined,
    endpoint,
  ) as KeelError & {
    retryable: boolean;
  };

describe('context-length refusals', () => {
  test("llama.cpp's n_ctx field names the window, and the error's example uses it", () => {
    // ggml-org/llama.cpp#15780: the error carries the prompt's tokens and the slot's context size.
    const error = refusal(400, {
      code: 400,
      message: 'the request exceeds the available context size, try increasing it',
      type: 'exceed_context_size_error',
      n_prompt_tokens: 14_429,
      n_ctx: 4096,
    });
    expect(error.details).toMatchObject({ reason: 'context_length', window: 4096 });
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('{"context": {"windows": {"qwen3:8b": 4096}}}');
  });

  test("OpenAI's code context_length_exceeded is enough, whatever the words", () => {
    const error = refusal(400, { message: 'Input is too large.', code: 'context_length_exceeded' });
    expect(error.details).toMatchObject({ reason: 'context_length' });
    expect(error.details?.window).toBeUndefined();
  });

  test('a 429 about tokens is a rate limit, retried, not a context window', () => {
    const error = refusal(429, { message: 'Rate limit reached: too many tokens per minute (TPM).' });
    expect(error.details?.reason).toBeUndefined();
    expect(error.retryable).toBe(true);
  });

  test('a 503 that is not about loading is any 5xx; one about loading is waited for by its own rule', () => {
    const busy = refusal(503, {
      message: 'server busy, please try again.  maximum pending requests exceeded',
    });
    expect(busy.details?.reason).toBeUndefined();
    expect(busy.retryable).toBe(true);
    const loading = refusal(503, { code: 503, message: 'Loading model', type: 'unavailable_error' });
    expect(loading.details).toMatchObject({ reason: 'loading', status: 503 });
    expect(loading.retryable).toBe(true);
  });
});
