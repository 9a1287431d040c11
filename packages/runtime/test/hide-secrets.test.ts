import { describe, expect, test } from 'vitest';
import { hideSecrets } from '../src/config/index.ts';

describe('hideSecrets', () => {
  test('hides keys named like a key, token, secret or password, in any case and at any depth', () => {
    const hidden = hideSecrets({
      api_key: 'sk-1',
      Nested: { AccessToken: 'tok-2', list: [{ client_SECRET: 's-3', db_password: 'p-4', name: 'kept' }] },
      mcp: {
        servers: [{ name: 'gh', headers: { Authorization: 'Bearer b-5' }, env: { GITHUB_TOKEN: 't-6' } }],
      },
      keyring: { anything: 'under-7' },
    });
    expect(hidden).toEqual({
      api_key: '***',
      Nested: { AccessToken: '***', list: [{ client_SECRET: '***', db_password: '***', name: 'kept' }] },
      mcp: { servers: [{ name: 'gh', headers: { Authorization: '***' }, env: { GITHUB_TOKEN: '***' } }] },
      keyring: '***',
    });
  });

  test('model_api_key is left out entirely, not masked', () => {
    expect(hideSecrets({ model: 'm', model_api_key: 'sk-1', nested: { model_api_key: 'sk-2' } })).toEqual({
      model: 'm',
      nested: {},
    });
  });

  test('token counts such as circuit_breaker.max_tokens stay visible; a token string does not', () => {
    expect(hideSecrets({ circuit_breaker: { max_tokens: 5000 }, tokens: 'abc', max_tokens: '5000' })).toEqual(
      {
        circuit_breaker: { max_tokens: 5000 },
        tokens: '***',
        max_tokens: '***',
      },
    );
  });

  test('passwords and secret query parameters inside URLs are masked; other URLs are left as written', () => {
    expect(
      hideSecrets({
        url: 'postgres://keel:hunter2@db.local:5432/keel',
        proxy: 'https://example.com/v1?api_key=abc&region=eu',
        plain: 'http://localhost:11434/v1',
        text: 'not a url: user:pw@host',
      }),
    ).toEqual({
      url: 'postgres://keel:***@db.local:5432/keel',
      proxy: 'https://example.com/v1?api_key=***&region=eu',
      plain: 'http://localhost:11434/v1',
      text: 'not a url: user:pw@host',
    });
  });
});
