import { describe, expect, test } from 'vitest';
import {
  createKeelWebClient,
  KeelWebApiError,
  KeelWebConnectionError,
  KeelWebResponseError,
} from '../src/index.ts';
import { startWorld } from './world.ts';

/** The refusal a call ends with (the test fails if it succeeds or throws anything else). */
async function refusal(call: Promise<unknown>): Promise<KeelWebApiError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(KeelWebApiError);
  return error as KeelWebApiError;
}

describe('refusals are KeelWebApiError with the spec’s error object', () => {
  test('the codes and statuses of spec section 7', async () => {
    await using world = await startWorld([]);
    const { client } = world;

    const session = await refusal(client.runs.run({ prompt: 'hi', session_id: 'ses_nope' }));
    expect(session).toMatchObject({ status: 404, code: 'SESSION_NOT_FOUND', route: 'POST /run' });
    expect(session.error).toEqual({
      code: 'SESSION_NOT_FOUND',
      message: "Session 'ses_nope' does not exist.",
      details: { session_id: 'ses_nope' },
    });

    const invalid = await refusal(client.config.update({ cb_max_steps: -1 }));
    expect(invalid).toMatchObject({ status: 400, code: 'INVALID_PARAMS' });
    expect(invalid.message).toContain('cb_max_steps');
    expect(invalid.details).toMatchObject({
      issues: [expect.objectContaining({ field: 'body.cb_max_steps' })],
    });

    expect(await refusal(client.sessions.get('ses_nope'))).toMatchObject({
      status: 404,
      code: 'SESSION_NOT_FOUND',
    });
    expect(await refusal(client.skills.get('no-such-skill'))).toMatchObject({
      status: 404,
      code: 'SKILL_NOT_FOUND',
    });
    expect(await refusal(client.agents.get('agt_nope'))).toMatchObject({
      status: 404,
      code: 'AGENT_NOT_FOUND',
    });
    expect(await refusal(client.callTool({ tool: 'no_such_tool' }))).toMatchObject({
      status: 404,
      code: 'TOOL_NOT_FOUND',
    });
    expect(
      await refusal(client.callTool({ tool: 'read_file', params: { path: '../../etc/passwd' } })),
    ).toMatchObject({ status: 403, code: 'PERMISSION_DENIED' });
    // Following a run that does not exist is refused at once, not retried.
    const unknownRun = await refusal(client.runs.follow('run_nope'));
    expect(unknownRun).toMatchObject({ status: 404, route: 'GET /runtime/runs/run_nope/events' });
    // An id is one path segment, whatever it holds.
    expect(await refusal(client.runs.get('../../health'))).toMatchObject({ status: 404 });
  });

  test('a wrong key is refused; the right one is sent as a bearer token', async () => {
    await using world = await startWorld([], { apiKey: 'sekret' });
    const wrong = createKeelWebClient({ baseUrl: world.base, apiKey: 'nope' });
    expect(await refusal(wrong.runs.list())).toMatchObject({ status: 401, code: 'AUTHENTICATION_FAILED' });
    // /health stays open.
    expect(await wrong.health()).toMatchObject({ status: 'ok' });
    expect((await world.client.runs.list()).runs).toEqual([]);
  });

  test('an answer the protocol does not describe is a KeelWebResponseError naming the field', async () => {
    const client = createKeelWebClient({
      baseUrl: 'http://keel.invalid',
      fetch: async () => Response.json({ status: 'ok', version: 3 }),
    });
    const error = await client.health().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(KeelWebResponseError);
    expect((error as KeelWebResponseError).message).toMatch(/^GET \/health answered .*version/);

    const proxy = createKeelWebClient({
      baseUrl: 'http://keel.invalid',
      fetch: async () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    });
    expect(await refusal(proxy.metrics())).toMatchObject({ status: 502, code: 'HTTP_502' });
  });

  test('a stream that cannot be reached gives up after maxAttempts with KeelWebConnectionError', async () => {
    let tries = 0;
    const client = createKeelWebClient({
      baseUrl: 'http://keel.invalid',
      fetch: async () => {
        tries += 1;
        throw new TypeError('fetch failed');
      },
      reconnect: { initialDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 },
    });
    const error = await client.runs.follow('run_1').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(KeelWebConnectionError);
    expect(error).toMatchObject({ attempts: 3 });
    expect(tries).toBe(3);
  });
});
