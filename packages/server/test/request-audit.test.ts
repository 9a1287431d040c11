import { createRuntime } from '@keel/runtime';
import { eventually } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

interface Entry {
  event: string;
  tool_name: string | null;
  args_summary: string;
  result_summary: string;
  success: boolean;
  run_id: string | null;
  session_id: string | null;
  workdir: string;
}

describe('request audit', () => {
  test('every API request is recorded as api_request with method, path and status; /health is not', async () => {
    await using s = await startServer([]);
    expect((await s.api('GET', '/runtime/runs?limit=5')).status).toBe(200);
    expect((await s.api('POST', '/runtime/runs', { workdir: s.repo.path })).status).toBe(400);
    expect((await s.api('GET', '/runtime/runs/run_missing')).status).toBe(404);
    expect((await s.api('GET', '/health')).status).toBe(200);

    const entries = await eventually(
      async () => {
        const { body } = await s.api<{ entries: Entry[] }>('GET', '/audit?event=api_request&limit=100');
        return body.entries.length >= 3 && body.entries;
      },
      { what: 'api_request entries' },
    );
    const byPath = (summary: string) => entries.find((entry) => entry.args_summary === summary);
    expect(byPath('GET /runtime/runs')).toEqual(
      expect.objectContaining({
        event: 'api_request',
        tool_name: null,
        result_summary: '200',
        success: true,
        run_id: null,
        session_id: null,
        workdir: s.repo.path,
      }),
    );
    expect(byPath('POST /runtime/runs')).toMatchObject({ result_summary: '400', success: false });
    expect(byPath('GET /runtime/runs/run_missing')).toMatchObject({
      result_summary: '404',
      success: false,
      run_id: 'run_missing',
    });
    expect(entries.some((entry) => entry.args_summary.includes('/health'))).toBe(false);
    // The query string is left out: it may carry a token.
    expect(entries.some((entry) => entry.args_summary.includes('limit='))).toBe(false);
  });

  test('a failed authentication is recorded as auth_failure with the path, never the offered key', async () => {
    await using s = await startServer([], { apiKey: 'right-key' });
    expect((await s.api('GET', '/runtime/runs')).status).toBe(401);
    expect(
      (await s.api('POST', '/runtime/runs', {}, { authorization: 'Bearer wrong-key-0123456789' })).status,
    ).toBe(401);

    const auth = { authorization: 'Bearer right-key' };
    const entries = await eventually(
      async () => {
        const { body } = await s.api<{ entries: Entry[] }>(
          'GET',
          '/audit?event=auth_failure',
          undefined,
          auth,
        );
        return body.entries.length >= 2 && body.entries;
      },
      { what: 'auth_failure entries' },
    );
    expect(
      entries.map(({ args_summary, result_summary, success }) => ({ args_summary, result_summary, success })),
    ).toEqual([
      { args_summary: 'POST /runtime/runs', result_summary: '401 invalid API key', success: false },
      { args_summary: 'GET /runtime/runs', result_summary: '401 missing API key', success: false },
    ]);
    expect(JSON.stringify(entries)).not.toContain('wrong-key');

    // Refused requests never reach the request audit (authentication comes first): once the later,
    // authenticated request is recorded, there is still no api_request entry with a 401.
    const requests = await eventually(
      async () => {
        const { body } = await s.api<{ entries: Entry[] }>(
          'GET',
          '/audit?event=api_request',
          undefined,
          auth,
        );
        return body.entries.length > 0 && body.entries;
      },
      { what: 'the authenticated request to be recorded' },
    );
    expect(requests[0]).toMatchObject({ args_summary: 'GET /audit', result_summary: '200' });
    expect(requests.filter((entry) => entry.result_summary === '401')).toEqual([]);
  });

  test('a rate-limited request is not recorded as api_request (rate limit before audit)', async () => {
    await using s = await startServer([], {
      config: { rate_limit: { enabled: true } },
      rateLimit: { max: 2 },
    });
    expect((await s.api('GET', '/sessions')).status).toBe(200);
    expect((await s.api('GET', '/sessions')).status).toBe(200);
    expect((await s.api('GET', '/sessions')).status).toBe(429);
    // Read through the SDK: the server would refuse this client now.
    const sdk = createRuntime({ env: s.env, workdir: s.repo.path });
    try {
      const entries = await eventually(
        async () => {
          const { entries } = await sdk.audit.list({ event: 'api_request' });
          return entries.length >= 2 && entries;
        },
        { what: 'api_request entries' },
      );
      // Give a stray third write the same chance to land before asserting it never does.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { entries: after } = await sdk.audit.list({ event: 'api_request' });
      expect(after).toHaveLength(2);
      expect(entries.map((entry) => entry.result_summary)).toEqual(['200', '200']);
    } finally {
      await sdk.close();
    }
  });
});
