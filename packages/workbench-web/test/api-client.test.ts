import { WorkbenchApiError, WorkbenchResponseError, WorkbenchSocket } from '@keel/workbench-client';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { onUnauthorized } from '../src/api/auth.ts';
import { api, fromClientError, translatingErrors, workbench } from '../src/api/client.ts';
import { errorWords } from '../src/api/error-words.ts';
import { ApiError } from '../src/api/errors.ts';

/** A fetch double answering `status` with `body` (JSON when an object), recording what was asked. */
function answering(status: number, body: unknown, statusText = '') {
  const asked: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    asked.push({ url, init });
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(status === 204 ? null : text, { status, statusText });
  });
  vi.stubGlobal('fetch', fetch);
  return asked;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the SPA's api over @keel/workbench-client", () => {
  test("a refusal becomes the SPA's ApiError with its code, details and words", async () => {
    const asked = answering(409, {
      error: { code: 'TASK_BUSY', message: 'busy', details: { running: 'the plan' } },
    });
    const error = await api.tasks.lockPlan('task_1').catch((failure: unknown) => failure);
    expect(asked[0]?.url).toMatch(/\/api\/tasks\/task_1\/lock-plan$/);
    expect(asked[0]?.init.method).toBe('POST');
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'TASK_BUSY', details: { running: 'the plan' } });
    expect(errorWords(error as ApiError)).toBe(
      'The task is busy with the plan. Wait for it to end, then try again.',
    );
  });

  test('a 401 opens the key prompt; an answer in no error shape reads as the status', async () => {
    let prompted = 0;
    const stop = onUnauthorized(() => {
      prompted += 1;
    });
    answering(401, { error: { code: 'AUTHENTICATION_FAILED', message: 'A key is needed.' } });
    expect(await api.settings.get().catch((failure: unknown) => failure)).toMatchObject({
      status: 401,
      code: 'AUTHENTICATION_FAILED',
    });
    expect(prompted).toBe(1);
    stop();

    answering(502, '<html>proxy</html>', 'Bad Gateway');
    const proxy = await api.flow().catch((failure: unknown) => failure);
    expect(proxy).toMatchObject({
      status: 502,
      code: 'HTTP_502',
      message: 'The service answered 502 Bad Gateway.',
    });
  });

  test('answers come in the shapes the pages read', async () => {
    const todo = {
      id: 't1',
      task_id: 'task_1',
      position: 0,
      title: 'x',
      description: '',
      expected_output: '',
      status: 'pending',
      origin: null,
      session_id: null,
      error: null,
      created_at: 'now',
      updated_at: 'now',
    };
    answering(200, { todos: [] });
    expect(await api.tasks.reorderTodos('task_1', [])).toEqual([]);
    answering(204, null);
    expect(await api.projects.remove('p1')).toBeUndefined();
    // An answer its schema does not describe is not shown as if it were right.
    answering(200, { todos: [{ ...todo, status: 'dancing' }] });
    const drifted = await api.tasks.removeTodo('task_1', 't1').catch((failure: unknown) => failure);
    expect(drifted).toMatchObject({ code: 'UNEXPECTED_ANSWER' });
    expect((drifted as ApiError).message).toContain('status');
  });

  test('network failures and aborts', () => {
    expect(fromClientError(new TypeError('fetch failed'))).toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
      message: 'The service cannot be reached (fetch failed).',
    });
    const abort = new DOMException('aborted', 'AbortError');
    expect(fromClientError(abort)).toBe(abort);
    expect(fromClientError(new WorkbenchApiError(null, { code: 'X', message: 'm' }, 'WS'))).toMatchObject({
      status: 0,
      code: 'X',
      details: {},
    });
    expect(
      fromClientError(new WorkbenchResponseError('GET /api/flow', 'a body that is not JSON', '')),
    ).toMatchObject({
      code: 'UNEXPECTED_ANSWER',
    });
  });

  test("every REST method of the client, none written again here, answers a refusal as the SPA's ApiError", async () => {
    const asked = answering(409, { error: { code: 'TASK_BUSY', message: 'busy' } });
    // These follow over the WebSocket (the app uses its one socket instead): not REST calls.
    const following = ['socket', 'tasks.watch', 'tasks.waitFor', 'sessions.subscribe', 'sessions.waitFor'];
    const methods = (client: object) =>
      Object.entries(client).flatMap(([name, value]) =>
        typeof value === 'function'
          ? [[name, value]]
          : Object.entries(value as object).map(([method, call]) => [`${name}.${method}`, call]),
      ) as [string, (...args: string[]) => unknown][];
    const calls = methods(api);
    // The SPA's api is the client's every method, by the same names.
    expect(calls.map(([name]) => name)).toEqual(methods(workbench).map(([name]) => name));
    const rest = calls.filter(([name]) => !following.includes(name));
    expect(rest.length).toBeGreaterThan(70);
    for (const [name, call] of rest) {
      const failure = await Promise.resolve(call('a1', 'b2', 'c3')).catch((error: unknown) => error);
      expect([name, failure]).toEqual([name, expect.any(ApiError)]);
      expect([name, failure]).toMatchObject([name, { status: 409, code: 'TASK_BUSY' }]);
    }
    expect(asked).toHaveLength(rest.length);
    // An answer that is no promise comes back as it is.
    expect(api.socket()).toBeInstanceOf(WorkbenchSocket);
  });

  test('the translating layer: throws and rejections translated, `this` kept, a method the same at every read', async () => {
    const resource = {
      base: 2,
      twice(n: number) {
        return this.base * n;
      },
      async later(n: number) {
        if (n < 0) throw new Error('negative');
        return n;
      },
      now(): never {
        throw new Error('at once');
      },
    };
    const client = translatingErrors(
      { resource },
      (error) => new Error(`translated: ${(error as Error).message}`),
    );
    expect(client.resource.twice(3)).toBe(6);
    expect(await client.resource.later(1)).toBe(1);
    await expect(client.resource.later(-1)).rejects.toThrow('translated: negative');
    expect(() => client.resource.now()).toThrow('translated: at once');
    expect(client.resource.twice).toBe(client.resource.twice);
    expect(api.settings.check).toBe(api.settings.check);
  });
});
