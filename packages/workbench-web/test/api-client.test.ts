import { WorkbenchApiError, WorkbenchResponseError } from '@keel/workbench-client';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { onUnauthorized } from '../src/api/auth.ts';
import { api, fromClientError } from '../src/api/client.ts';
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
    expect(await api.tasks.reorderTodos('task_1', [])).toEqual({ todos: [] });
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
});
