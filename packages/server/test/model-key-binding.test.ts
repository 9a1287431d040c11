// Security issue #21: the server's model key (RUNTIME_MODEL_API_KEY) goes only to the configured endpoint.
// A run request naming another `model_base_url` brings its own `model_api_key` or sends none, so a client
// cannot harvest the key with an address of its own. Two scripted model servers record what reaches them.
import { eventually, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

const serverKey = 'sk-SERVER-env-key-3b7a';

function bearers(model: { requests: readonly { headers: Record<string, unknown> }[] }): unknown[] {
  return model.requests.map((request) => request.headers.authorization);
}

describe('the environment key is bound to the configured endpoint', () => {
  test("another model_base_url gets the request's own key or none; the configured endpoint gets the key", {
    timeout: 30_000,
  }, async () => {
    await using s = await startServer([{ text: 'configured' }], {
      env: { RUNTIME_MODEL_API_KEY: serverKey },
    });
    const other = await startMockModel({
      script: [
        { when: { lastMessageIncludes: 'no key' }, text: 'keyless' },
        {
          when: { lastMessageIncludes: 'lead' },
          toolCalls: [{ name: 'spawn_agent', arguments: { task: 'child work' } }],
        },
        { when: { lastRole: 'user', lastMessageIncludes: 'child work' }, text: 'child done' },
        { when: { lastRole: 'tool' }, text: 'lead done' },
      ],
    });
    try {
      const keyless = await s.api('POST', '/run', { prompt: 'no key', model_base_url: other.url });
      expect(keyless.body, JSON.stringify(keyless.body)).toMatchObject({
        status: 'success',
        output: 'keyless',
      });
      expect(bearers(other)).toEqual(['Bearer no-key']);

      // With its own key, and a sub-agent that inherits the endpoint and the key.
      const own = await s.api('POST', '/run', {
        prompt: 'lead',
        model_base_url: other.url,
        model_api_key: 'sk-own',
      });
      expect(own.body, JSON.stringify(own.body)).toMatchObject({ status: 'success', output: 'lead done' });
      await eventually(() => other.remaining === 0, {
        what: 'the sub-agent to ask the model',
        timeoutMs: 10_000,
      });
      expect(bearers(other).slice(1)).toEqual(['Bearer sk-own', 'Bearer sk-own', 'Bearer sk-own']);
      expect(bearers(other)).not.toContain(`Bearer ${serverKey}`);

      const configured = await s.api('POST', '/run', { prompt: 'hello' });
      expect(configured.body).toMatchObject({ status: 'success', output: 'configured' });
      expect(bearers(s.model)).toEqual([`Bearer ${serverKey}`]);
    } finally {
      await other.close();
    }
  });
});
