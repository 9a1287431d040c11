import { once } from 'node:events';
import { createServer } from 'node:net';
import { startMockModel } from '@keel/testkit';
import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { KeelError } from '../../src/index.ts';
import type { RetryNotice } from '../../src/model/index.ts';
import { ModelClient } from '../../src/model/index.ts';
import { mapModelError } from '../../src/model/map-error.ts';

// What a user reads when the model cannot be used: the endpoint, the cause and the setting to change;
// and whether Keel tries again (a failure that will repeat is not retried).

/** One turn against `baseURL`; the error it ends with and the retries it announced. */
async function failedTurn(baseURL: string, apiKey = 'no-key', model = 'mock-model') {
  const retries: RetryNotice[] = [];
  const client = new ModelClient({ model, apiKey, baseURL, retry: { baseDelayMs: 1, maxAttempts: 3 } });
  const error = await client
    .turn([{ role: 'user', content: 'hi' }], [], { onRetry: (notice) => void retries.push(notice) })
    .then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
  if (!KeelError.is(error)) throw new Error(`expected a KeelError, got ${String(error)}`);
  return { error, retries };
}

/** A loopback port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

describe('model errors say where, why and what to change', () => {
  test('a refused connection names the URL and the setting, and is not retried', async () => {
    const port = await closedPort();
    const { error, retries } = await failedTurn(`http://user:secret@127.0.0.1:${port}/v1?token=x`);
    expect(error.code).toBe('MODEL_ERROR');
    expect(error.message).toBe(
      `Could not reach the model endpoint http://127.0.0.1:${port}/v1: the connection was refused (nothing listens there): check model_base_url (RUNTIME_MODEL_BASE_URL, --model-base-url) and that the server runs.`,
    );
    expect(error.details).toMatchObject({ url: `http://127.0.0.1:${port}/v1`, reason: 'refused' });
    expect(retries).toEqual([]);
  });

  test('TLS spoken to a plain HTTP server says so and how to fix it, without retrying', async () => {
    await using model = await startMockModel({ script: [] });
    const { error, retries } = await failedTurn(model.url.replace('http://', 'https://'));
    expect(error.message).toMatch(/: TLS failed \(\w+\): a server that speaks plain HTTP needs an http:\/\//);
    expect(error.details).toMatchObject({ reason: 'tls' });
    expect(retries).toEqual([]);
  });

  test('401 names RUNTIME_MODEL_API_KEY, whether a key was sent or not, and is not retried', async () => {
    await using model = await startMockModel({ script: [{ error: { status: 401 }, repeat: true }] });
    const keyed = await failedTurn(model.url, 'sk-wrong');
    expect(keyed.error.code).toBe('AUTHENTICATION_FAILED');
    expect(keyed.error.message).toBe(
      `The model endpoint ${model.url} refused the request (HTTP 401): set RUNTIME_MODEL_API_KEY to a key it accepts (or model_api_key for one run).`,
    );
    expect(keyed.error.message).not.toContain('sk-wrong');
    expect(keyed.retries).toEqual([]);
    const keyless = await failedTurn(model.url);
    expect(keyless.error.message).toContain(
      'it needs an API key and none was sent: set RUNTIME_MODEL_API_KEY',
    );
  });

  test('404 points at the model name and the base URL; 429 is retried, counted from the first retry', async () => {
    await using model = await startMockModel({
      script: [
        { error: { status: 404, message: 'model not found' } },
        { error: { status: 429 }, repeat: true },
      ],
    });
    const missing = await failedTurn(model.url, 'no-key', 'qwen3:8b');
    expect(missing.error.message).toContain(`The model endpoint ${model.url} answered HTTP 404`);
    expect(missing.error.message).toContain(
      'Check the model name "qwen3:8b" (model (RUNTIME_MODEL, --model))',
    );
    expect(missing.retries).toEqual([]);
    const limited = await failedTurn(model.url);
    expect(limited.retries.map((notice) => notice.attempt)).toEqual([2, 3]);
    expect(limited.error.message).toContain('rate-limiting');
  });

  test('an unresolvable host is named and not retried; a DNS server that does not answer is', () => {
    const endpoint = { baseURL: 'http://llm.nowhere.invalid:11434/v1', model: 'm', keyed: false };
    const lookup = (code: string) =>
      new OpenAI.APIConnectionError({ cause: Object.assign(new Error('fetch failed'), { cause: { code } }) });
    const missing = mapModelError(lookup('ENOTFOUND'), undefined, endpoint) as KeelError & {
      retryable: boolean;
    };
    expect(missing.message).toContain('the host llm.nowhere.invalid:11434 could not be resolved');
    expect(missing.retryable).toBe(false);
    const slow = mapModelError(lookup('EAI_AGAIN'), undefined, endpoint) as KeelError & {
      retryable: boolean;
    };
    expect(slow.retryable).toBe(true);
  });

  test("a model that cannot call tools (Ollama's words) says which to choose, without retrying", async () => {
    await using model = await startMockModel({
      script: [
        { error: { status: 400, message: 'registry.ollama.ai/library/gemma:2b does not support tools' } },
      ],
    });
    const { error, retries } = await failedTurn(model.url, 'no-key', 'gemma:2b');
    expect(error.details).toMatchObject({ reason: 'no_tools' });
    expect(error.message).toContain('The model "gemma:2b"');
    expect(error.message).toContain('cannot call tools');
    expect(error.message).toContain('ollama show <model>');
    expect(retries).toEqual([]);
  });

  test.each([
    [
      "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (8000 in the messages, 1000 in the completion).",
      'vLLM',
    ],
    ['the request exceeds the available context size, try increasing it', 'llama.cpp'],
    ['Input prompt (9000 tokens) is too long and exceeds limit of 8192', 'vLLM (older)'],
  ])('a context-length error (%s, %s) says how to tell Keel the window', async (said) => {
    await using model = await startMockModel({ script: [{ error: { status: 400, message: said } }] });
    const { error, retries } = await failedTurn(model.url, 'no-key', 'qwen3:8b');
    expect(error.details).toMatchObject({ reason: 'context_length' });
    expect(error.message).toContain('no longer fits the context window of "qwen3:8b"');
    expect(error.message).toContain('"context": {"windows": {"qwen3:8b": 8192}}');
    expect(retries).toEqual([]);
  });
});
