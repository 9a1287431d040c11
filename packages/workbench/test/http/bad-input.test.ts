import { describe, expect, test } from 'vitest';
import { type Body, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';

/** Every endpoint, with `:id` to be replaced by an id that does not exist. */
const routes: [string, string][] = [
  ['GET', '/api/settings'],
  ['PUT', '/api/settings'],
  ['GET', '/api/settings/check'],
  ['POST', '/api/settings/test-connection'],
  ['POST', '/api/settings/mcp-servers/:id/health'],
  ['GET', '/api/projects'],
  ['POST', '/api/projects'],
  ['GET', '/api/projects/:id'],
  ['PUT', '/api/projects/:id'],
  ['DELETE', '/api/projects/:id'],
  ['POST', '/api/projects/:id/init'],
  ['GET', '/api/projects/:id/knowledge'],
  ['GET', '/api/projects/:id/repository-config'],
  ['GET', '/api/tasks'],
  ['POST', '/api/tasks'],
  ['GET', '/api/tasks/:id'],
  ['PUT', '/api/tasks/:id'],
  ['DELETE', '/api/tasks/:id'],
  ['POST', '/api/tasks/:id/init'],
  ['POST', '/api/tasks/:id/confirm-init'],
  ['POST', '/api/tasks/:id/plan'],
  ['POST', '/api/tasks/:id/lock-plan'],
  ['POST', '/api/tasks/:id/todo'],
  ['POST', '/api/tasks/:id/start-coding'],
  ['POST', '/api/tasks/:id/run-all'],
  ['POST', '/api/tasks/:id/baseline'],
  ['GET', '/api/tasks/:id/todos'],
  ['GET', '/api/tasks/:id/diff'],
  ['POST', '/api/tasks/:id/commit-message'],
  ['POST', '/api/tasks/:id/submit-mr'],
  ['PUT', '/api/tasks/:id/plan'],
  ['GET', '/api/tasks/:id/plan/versions'],
  ['GET', '/api/tasks/:id/plan/versions/1'],
  ['GET', '/api/tasks/:id/plan/diff'],
  ['POST', '/api/tasks/:id/todos'],
  ['PATCH', '/api/tasks/:id/todos/todo_missing'],
  ['DELETE', '/api/tasks/:id/todos/todo_missing'],
  ['PUT', '/api/tasks/:id/todos/order'],
  ['PUT', '/api/tasks/:id/commit-message'],
  ['POST', '/api/tasks/:id/cancel'],
  ['POST', '/api/tasks/:id/reopen'],
  ['GET', '/api/todos/:id'],
  ['POST', '/api/todos/:id/execute'],
  ['POST', '/api/todos/:id/skip'],
  ['GET', '/api/todos/:id/diff'],
  ['GET', '/api/sessions/:id/status'],
  ['GET', '/api/sessions/:id/logs'],
  ['POST', '/api/sessions/:id/stop'],
  ['POST', '/api/sessions/:id/messages'],
  ['GET', '/api/sessions/:id/queue'],
  ['DELETE', '/api/sessions/:id/queue/wmsg_missing'],
  ['GET', '/api/skills'],
  ['POST', '/api/skills'],
  ['GET', '/api/skills/:id'],
  ['PUT', '/api/skills/:id'],
  ['DELETE', '/api/skills/:id'],
  ['POST', '/api/skills/:id/link'],
  ['GET', '/api/conversations'],
  ['POST', '/api/conversations'],
  ['GET', '/api/conversations/:id'],
  ['PUT', '/api/conversations/:id'],
  ['DELETE', '/api/conversations/:id'],
  ['POST', '/api/conversations/:id/init'],
];

/** Routes whose body has required fields: validated (400) before the id is looked up (404). */
function needsBodyFirst(method: string, url: string): boolean {
  return (
    url.endsWith('/link') ||
    (method === 'PUT' && (url.endsWith('/plan') || url.endsWith('/todos/order'))) ||
    (method === 'POST' && (url.endsWith('/todos') || url.endsWith('/messages'))) ||
    method === 'PATCH'
  );
}

const badBodies: (string | undefined)[] = [
  '{not json',
  '[]',
  '"text"',
  '{"name": 5, "repositories": "x", "description": [], "project_id": 1, "message": 7, "model": 3, "title": {}, "linked": "yes", "content": 1}',
  '{"unexpected_field": true}',
];

function expectErrorShape(response: { statusCode: number; json(): Body }, what: string) {
  expect(response.statusCode, what).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, what).toBeLessThan(500);
  const body = response.json();
  expect(typeof body.error?.code, what).toBe('string');
  expect(typeof body.error?.message, what).toBe('string');
  expect(Object.keys(body), what).toEqual(['error']);
}

describe('bad input on every endpoint gets the error shape, never a 500', () => {
  test('unknown ids, bad JSON, wrong types, unexpected fields', { timeout: 60_000 }, async () => {
    await using wb = await startWorkbench([], { configure: false });
    const { app } = wb.workbench;
    for (const [method, route] of routes) {
      const url = route.replace(':id', 'does_not_exist');
      if (route.includes(':id')) {
        const withBody =
          method === 'PUT' ? { headers: { 'content-type': 'application/json' }, payload: '{}' } : {};
        const response = await app.inject({ method: method as 'GET', url, ...withBody });
        expectErrorShape(response, `${method} ${url}`);
        // Only the routes whose body needs fields check it before they look the record up.
        expect(response.statusCode, `${method} ${url}`).toBe(needsBodyFirst(method, url) ? 400 : 404);
      }
      if (method === 'GET' || method === 'DELETE') continue;
      for (const payload of badBodies) {
        const response = await app.inject({
          method: method as 'POST',
          url,
          headers: { 'content-type': 'application/json' },
          payload,
        });
        const what = `${method} ${url} ${payload}`;
        // Routes without a body may accept a harmless one; everything else must refuse with the shape.
        if (response.statusCode < 400) continue;
        expectErrorShape(response, what);
      }
    }
    const notFound = await app.inject({ method: 'GET', url: '/api/nothing' });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json().error.code).toBe('NOT_FOUND');
  });

  test('specific refusals name the field', async () => {
    const root = tempDir('bad');
    const repo = repoWithRemote(root, 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench([], { configure: false });
    const { api } = wb;
    const cases: [string, string, unknown, number, string, string?][] = [
      ['POST', '/api/projects', { name: 'p', repositories: [] }, 400, 'INVALID_PARAMS', 'repositories'],
      [
        'POST',
        '/api/projects',
        { name: 'p', repositories: [{ path: root, type: 'custom' }] },
        422,
        'NOT_A_GIT_REPOSITORY',
        root,
      ],
      [
        'POST',
        '/api/projects',
        { name: 'p', repositories: [{ path: repo.dir, type: 'mobile' }] },
        400,
        'INVALID_PARAMS',
        'type',
      ],
      [
        'POST',
        '/api/projects',
        { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }], default_runner: 'zzz' },
        422,
        'UNKNOWN_RUNNER',
      ],
      [
        'POST',
        '/api/projects',
        {
          name: 'p',
          repositories: [
            { path: repo.dir, type: 'custom' },
            { path: repo.dir, type: 'backend' },
          ],
        },
        400,
        'INVALID_PARAMS',
        'name',
      ],
      ['POST', '/api/tasks', { project_id: 'nope', description: 'x' }, 404, 'PROJECT_NOT_FOUND'],
      ['POST', '/api/tasks', { project_id: 'p', description: '' }, 400, 'INVALID_PARAMS', 'description'],
      [
        'POST',
        '/api/tasks',
        { project_id: 'p', description: 'x', branch: 'bad..branch' },
        400,
        'INVALID_PARAMS',
        'branch',
      ],
      [
        'POST',
        '/api/tasks',
        { project_id: 'p', description: 'x', prd_links: ['ftp://x'] },
        400,
        'INVALID_PARAMS',
        'prd_links',
      ],
      [
        'POST',
        '/api/tasks',
        { project_id: 'p', description: 'x', images: [{ data: 'not base64!', media_type: 'image/png' }] },
        400,
        'INVALID_PARAMS',
        'images',
      ],
      [
        'POST',
        '/api/tasks',
        { project_id: 'p', description: 'x', images: [{ data: 'aGk=', media_type: 'text/plain' }] },
        400,
        'INVALID_PARAMS',
        'media_type',
      ],
      ['POST', '/api/skills', { name: 'Bad Name', description: 'd' }, 400, 'INVALID_PARAMS', 'name'],
      ['PUT', '/api/settings', { base_url: 'not a url' }, 400, 'INVALID_PARAMS', 'base_url'],
      ['GET', '/api/sessions/x/logs?after=-1', undefined, 400, 'INVALID_PARAMS', 'after'],
      ['GET', '/api/sessions/x/logs?limit=abc', undefined, 400, 'INVALID_PARAMS', 'limit'],
      ['POST', '/api/projects/x/init', { repository: 'app' }, 400, 'INVALID_PARAMS'],
    ];
    for (const [method, path, body, status, code, mentions] of cases) {
      const response = await api(method, path, body);
      const what = `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`;
      expect(response.status, what).toBe(status);
      expect(response.body.error.code, what).toBe(code);
      if (mentions) expect(response.body.error.message, what).toContain(mentions);
    }
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    const skill = (await api('POST', '/api/skills', { name: 'dup', description: 'd' })).body;
    expect((await api('POST', '/api/skills', { name: 'dup', description: 'd' })).body.error.code).toBe(
      'SKILL_EXISTS',
    );
    expect(
      (await api('POST', `/api/skills/${skill.id}/link`, { project_id: 'nope', linked: true })).status,
    ).toBe(404);
    const init = await api('POST', `/api/projects/${project.id}/init`);
    expect(init.status).toBe(409);
    expect(init.body.error.code).toBe('MODEL_NOT_CONFIGURED');
  });
});
