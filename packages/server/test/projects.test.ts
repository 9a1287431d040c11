import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions
type Body = any;

/** The 422 body of the web project and task endpoints, naming each bad field. */
function unprocessable(fields: string[]) {
  return {
    error: {
      code: 'INVALID_PARAMS',
      message: expect.stringMatching(new RegExp(`^${fields[0]!.replace(/\./g, '\\.')}: `)),
      details: { issues: fields.map((field) => ({ field, message: expect.any(String) })) },
    },
  };
}

describe('/api/projects', () => {
  test('create, read, list, update and delete a project; it gets a session and its runtime directory', async () => {
    await using s = await startServer([]);
    await using extra = await createTempDir();
    const created = await s.api('POST', '/api/projects', {
      name: 'Shop',
      description: 'The web shop',
      workdir: s.repo.path,
      code_paths: [extra.path],
    });
    expect(created.status).toBe(201);
    const project = created.body;
    expect(project).toEqual({
      id: expect.stringMatching(/^prj_/),
      name: 'Shop',
      description: 'The web shop',
      workdir: s.repo.path,
      code_paths: [extra.path],
      session_id: expect.stringMatching(/^ses_/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(JSON.parse(await readFile(join(s.repo.path, '.runtime', 'config.json'), 'utf8'))).toEqual({});
    const session = await s.api('GET', `/sessions/${project.session_id}`);
    expect(session.body).toMatchObject({ title: 'Shop', workdir: s.repo.path, message_count: 0 });

    expect((await s.api('GET', `/api/projects/${project.id}`)).body).toEqual(project);
    const second = (await s.api('POST', '/api/projects', { name: 'Two', workdir: '.' })).body;
    expect(second).toMatchObject({ workdir: s.repo.path, description: '', code_paths: [] });
    const listed = await s.api('GET', '/api/projects');
    expect(listed.status).toBe(200);
    expect(listed.body.projects.map((each: Body) => each.id)).toEqual([second.id, project.id]);
    expect(listed.body.next_cursor).toBeNull();
    const firstPage = (await s.api('GET', '/api/projects?limit=1')).body;
    expect(firstPage).toMatchObject({ projects: [{ id: second.id }], next_cursor: second.id });
    const nextPage = (await s.api('GET', `/api/projects?limit=1&cursor=${firstPage.next_cursor}`)).body;
    expect(nextPage).toMatchObject({ projects: [{ id: project.id }], next_cursor: null });

    const updated = await s.api('PUT', `/api/projects/${project.id}`, {
      description: 'Still the shop',
      code_paths: [],
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: project.id,
      name: 'Shop',
      description: 'Still the shop',
      code_paths: [],
    });

    const deleted = await s.api('DELETE', `/api/projects/${project.id}`);
    expect(deleted).toEqual({ status: 200, body: { status: 'deleted', id: project.id } });
    expect((await s.api('GET', `/api/projects/${project.id}`)).status).toBe(404);
    // What was said stays readable.
    expect((await s.api('GET', `/sessions/${project.session_id}`)).status).toBe(200);
  });

  test('a missing project is 404 PROJECT_NOT_FOUND on every row, bad ids included', async () => {
    await using s = await startServer([]);
    for (const id of ['prj_nope', 'nope', '%20', 'x'.repeat(1000), encodeURIComponent('../../etc')]) {
      for (const [method, path, body] of [
        ['GET', `/api/projects/${id}`],
        ['PUT', `/api/projects/${id}`, { name: 'x' }],
        ['DELETE', `/api/projects/${id}`],
        ['POST', `/api/projects/${id}/init`],
        ['GET', `/api/projects/${id}/tasks`],
        ['POST', `/api/projects/${id}/tasks`, { name: 'x', branch_name: 'x' }],
      ] as const) {
        const answer = await s.api(method, path, body);
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.body.error.code, `${method} ${path}`).toBe('PROJECT_NOT_FOUND');
      }
    }
  });

  test('invalid fields are 422 naming each field: missing, wrong types, empty, huge, unknown, NUL, missing paths', async () => {
    await using s = await startServer([]);
    const cases: [unknown, string[]][] = [
      [{}, ['body.name', 'body.workdir']],
      [{ name: 'x' }, ['body.workdir']],
      [{ name: 42, workdir: s.repo.path }, ['body.name']],
      [{ name: 'x', workdir: ['a'] }, ['body.workdir']],
      [{ name: 'x', workdir: s.repo.path, code_paths: 'src' }, ['body.code_paths']],
      [{ name: 'x', workdir: s.repo.path, code_paths: [1] }, ['body.code_paths.0']],
      [{ name: 'x', workdir: s.repo.path, description: null }, ['body.description']],
      [{ name: '   ', workdir: s.repo.path }, ['body.name']],
      [{ name: 'x'.repeat(201), workdir: s.repo.path }, ['body.name']],
      [{ name: 'x', workdir: s.repo.path, description: 'd'.repeat(10_001) }, ['body.description']],
      [{ name: 'x', workdir: `/${'a'.repeat(5000)}` }, ['body.workdir']],
      [{ name: 'x\u0000', workdir: s.repo.path }, ['body.name']],
      [{ name: 'x', workdir: s.repo.path, owner: 'me' }, ['body']],
      [{ name: 'x', workdir: join(s.repo.path, 'missing') }, ['body.workdir']],
      [{ name: 'x', workdir: join(s.repo.path, 'a.txt') }, ['body.workdir']],
      [{ name: 'x', workdir: s.repo.path, code_paths: ['.', 'missing'] }, ['body.code_paths.1']],
    ];
    await s.api('POST', '/api/projects', { name: 'seed', workdir: s.repo.path });
    await import('node:fs/promises').then((fs) => fs.writeFile(join(s.repo.path, 'a.txt'), 'a'));
    for (const [body, fields] of cases) {
      const answer = await s.api('POST', '/api/projects', body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(answer.body, JSON.stringify(body).slice(0, 80)).toMatchObject(unprocessable(fields));
    }
    const [project] = (await s.api('GET', '/api/projects')).body.projects;
    for (const [body, fields] of [
      [{ name: '' }, ['body.name']],
      [{ workdir: join(s.repo.path, 'missing') }, ['body.workdir']],
      [{ code_paths: [null] }, ['body.code_paths.0']],
      [{ session_id: 'ses_x' }, ['body']],
    ] as [unknown, string[]][]) {
      const answer = await s.api('PUT', `/api/projects/${project.id}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body).toMatchObject(unprocessable(fields));
    }
    for (const query of [
      'limit=0',
      'limit=abc',
      'limit=101',
      `workdir=${encodeURIComponent('/nope/nope')}`,
    ]) {
      const answer = await s.api('GET', `/api/projects?${query}`);
      expect(answer.status, query).toBe(422);
      expect(answer.body.error.details.issues[0].field, query).toMatch(/^querystring\./);
    }
    // Nothing was created by any of them.
    expect((await s.api('GET', '/api/projects')).body.projects).toHaveLength(1);
  });

  test('a malformed body is 400 INVALID_PARAMS (not a field), a huge one 413 PAYLOAD_TOO_LARGE, both in the error shape', async () => {
    await using s = await startServer([]);
    const malformed = await s.api('POST', '/api/projects', '{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('INVALID_PARAMS');
    const huge = await s.api('POST', '/api/projects', {
      name: 'x',
      workdir: s.repo.path,
      description: 'd'.repeat(2_000_000),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const text = await s.exchange('POST', '/api/projects', undefined, { 'content-type': 'text/plain' });
    expect(text.status).toBeGreaterThanOrEqual(400);
    expect(text.status).toBeLessThan(500);
  });

  test('init without a usable model is a clear CONFIG_ERROR and starts no run', async () => {
    await using s = await startServer([], { env: { RUNTIME_MODEL: undefined } });
    const project = (await s.api('POST', '/api/projects', { name: 'App', workdir: s.repo.path })).body;
    const init = await s.api('POST', `/api/projects/${project.id}/init`);
    expect(init.status).toBe(400);
    expect(init.body.error).toMatchObject({
      code: 'CONFIG_ERROR',
      message: expect.stringMatching(/^Project init needs a usable model\. No model configured/),
    });
    expect((await s.api('GET', '/runtime/runs')).body.runs).toEqual([]);
  });

  test('the OpenAPI document lists the project, task and directory endpoints with their bodies', async () => {
    await using s = await startServer([]);
    const { paths, components } = (await s.api('GET', '/docs/json')).body;
    // Bodies are named schemas (issue #40): read each where its `$ref` points.
    const body = (path: string) => {
      const { $ref } = paths[path].post.requestBody.content['application/json'].schema;
      return components.schemas[$ref.replace('#/components/schemas/', '')];
    };
    for (const [path, methods] of Object.entries({
      '/api/directories': ['get'],
      '/api/projects': ['get', 'post'],
      '/api/projects/{project_id}': ['get', 'put', 'delete'],
      '/api/projects/{project_id}/init': ['post'],
      '/api/projects/{project_id}/tasks': ['get', 'post'],
      '/api/tasks/{task_id}': ['get', 'put', 'delete'],
    })) {
      expect(Object.keys(paths[path] ?? {}), path).toEqual(expect.arrayContaining(methods));
    }
    const create = body('/api/projects');
    expect(create).toMatchObject({ required: expect.arrayContaining(['name', 'workdir']) });
    expect(Object.keys(create.properties)).toEqual(['name', 'description', 'workdir', 'code_paths']);
    const task = body('/api/projects/{project_id}/tasks');
    expect(task.required).toEqual(['name', 'branch_name']);
  });
});
