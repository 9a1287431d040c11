// Body-less actions sent as many HTTP clients send them: `content-type: application/json` and no body.
import { describe, expect, test } from 'vitest';
import { eventually, knowledgeScript, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';

describe('an empty body is no body, whatever its content type', () => {
  test('POST /api/projects/{id}/init with a JSON content type and no body starts the work', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('empty'), 'app', { 'a.txt': 'a\n' });
    // No model yet: the automatic knowledge generation cannot start, and says so on the project.
    await using wb = await startWorkbench(knowledgeScript(1), { configure: false });
    const { app } = wb.workbench;
    const project = (
      await wb.api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    expect(project.status).toBe('CREATED');
    expect(project.error).toContain('did not start automatically');
    expect(project.error).toContain(`POST /api/projects/${project.id}/init`);
    const settings = await wb.api('PUT', '/api/settings', {
      model: 'mock-model',
      base_url: wb.model.url,
      api_key: 'sk-test-secret',
    });
    expect(settings.status).toBe(200);
    const url = `/api/projects/${project.id}/init`;
    const init = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' } });
    expect(init.statusCode, init.body).toBe(202);
    // Sent again while it runs: refused for that reason, not for the body.
    const again = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '0' },
    });
    expect(again.statusCode, again.body).toBe(409);
    await eventually(
      async () => (await wb.api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
      'READY',
    );
    // Other content types and a whitespace-only JSON body: the same (a task initializes itself, so its
    // body-less actions here are cancel and re-open).
    const task = await wb.api('POST', '/api/tasks', { project_id: project.id, description: 'A task' });
    await eventually(
      async () => (await wb.api('GET', `/api/tasks/${task.body.id}`)).body.init.status === 'done',
      'init',
    );
    for (const [type, payload] of [
      ['text/plain', ''],
      ['application/x-www-form-urlencoded', ''],
      ['application/json', '  \n'],
    ]) {
      for (const [action, state] of [
        ['cancel', 'CANCELLED'],
        ['reopen', 'INITIALIZING'],
      ]) {
        const answer = await app.inject({
          method: 'POST',
          url: `/api/tasks/${task.body.id}/${action}`,
          headers: { 'content-type': type as string },
          payload,
        });
        expect(answer.statusCode, `${action} ${type} ${JSON.stringify(payload)}`).toBe(200);
        expect(answer.json().state).toBe(state);
      }
    }
  });

  test('a route that needs a body still says so; malformed JSON and unknown types keep their 4xx', async () => {
    await using wb = await startWorkbench([], { configure: false });
    const { app } = wb.workbench;
    const empty = await app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json())).toEqual(['error']);
    expect(empty.json().error.code).toBe('INVALID_PARAMS');
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatchObject({
      code: 'INVALID_PARAMS',
      details: { reason: 'FST_ERR_CTP_INVALID_JSON_BODY' },
    });
    const poisoned = await app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__": {"x": 1}}',
    });
    expect(poisoned.statusCode).toBe(400);
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'data',
    });
    expect(unknown.statusCode).toBe(415);
    expect(unknown.json().error).toMatchObject({ code: 'INVALID_PARAMS' });
  });
});
