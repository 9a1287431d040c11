import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions
type Body = any;

describe('/api/projects/{project_id}/tasks and /api/tasks/{task_id}', () => {
  test('tasks on a real repository: the first creates its branch, the second switches to its own', async () => {
    await using s = await startServer([], { files: { 'app.txt': 'v1\n' } });
    const project = (await s.api('POST', '/api/projects', { name: 'App', workdir: s.repo.path })).body;
    const branch = async () => (await s.repo.git('branch', '--show-current')).trim();

    const created = await s.api('POST', `/api/projects/${project.id}/tasks`, {
      name: 'Login form',
      branch_name: 'feature/login',
    });
    expect(created.status).toBe(201);
    const login = created.body;
    expect(login).toEqual({
      id: expect.stringMatching(/^tsk_/),
      project_id: project.id,
      name: 'Login form',
      branch_name: 'feature/login',
      session_id: expect.stringMatching(/^ses_/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(login.session_id).not.toBe(project.session_id);
    expect(await branch()).toBe('feature/login');
    expect((await s.api('GET', `/sessions/${login.session_id}`)).body.title).toBe('App: Login form');

    await writeFile(join(s.repo.path, 'app.txt'), 'login\n');
    await s.repo.git('commit', '-qam', 'login');
    // An existing branch is switched to, not re-created.
    await s.repo.git('branch', 'feature/search', 'main');
    const search = (
      await s.api('POST', `/api/projects/${project.id}/tasks`, {
        name: 'Search',
        branch_name: 'feature/search',
      })
    ).body;
    expect(await branch()).toBe('feature/search');
    expect(await readFile(join(s.repo.path, 'app.txt'), 'utf8')).toBe('v1\n');

    const listed = await s.api('GET', `/api/projects/${project.id}/tasks`);
    expect(listed.body).toEqual({ tasks: [search, login], next_cursor: null });
    const firstPage = (await s.api('GET', `/api/projects/${project.id}/tasks?limit=1`)).body;
    expect(firstPage).toMatchObject({ tasks: [{ id: search.id }], next_cursor: search.id });
    expect((await s.api('GET', `/api/tasks/${login.id}`)).body).toEqual(login);

    // Moving a task to another branch switches to it; a rename touches nothing else.
    const moved = await s.api('PUT', `/api/tasks/${login.id}`, { branch_name: 'feature/login-2' });
    expect(moved.body).toMatchObject({ id: login.id, branch_name: 'feature/login-2', name: 'Login form' });
    expect(await branch()).toBe('feature/login-2');
    expect((await s.api('PUT', `/api/tasks/${login.id}`, { name: 'Login' })).body.name).toBe('Login');

    expect(await s.api('DELETE', `/api/tasks/${search.id}`)).toEqual({
      status: 200,
      body: { status: 'deleted', id: search.id },
    });
    expect((await s.api('GET', `/api/tasks/${search.id}`)).status).toBe(404);
    // The branch stays: deleting a record loses no work.
    expect(await s.repo.git('branch', '--list', 'feature/search')).toContain('feature/search');

    await s.api('DELETE', `/api/projects/${project.id}`);
    expect((await s.api('GET', `/api/tasks/${login.id}`)).body.error.code).toBe('TASK_NOT_FOUND');
  });

  test('a dirty tree is refused with 409 and nothing is lost or changed', async () => {
    await using s = await startServer([], { files: { 'app.txt': 'v1\n' } });
    const project = (await s.api('POST', '/api/projects', { name: 'App', workdir: s.repo.path })).body;
    await writeFile(join(s.repo.path, 'app.txt'), 'work in progress\n');
    const before = await s.repo.git('status', '--porcelain');

    const refused = await s.api('POST', `/api/projects/${project.id}/tasks`, {
      name: 'x',
      branch_name: 'feature/x',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringContaining('uncommitted changes (app.txt)'),
      details: { changed_files: ['app.txt'], branch: 'feature/x', current_branch: 'main' },
    });
    expect(await readFile(join(s.repo.path, 'app.txt'), 'utf8')).toBe('work in progress\n');
    expect(await s.repo.git('status', '--porcelain')).toBe(before);
    expect((await s.repo.git('branch', '--show-current')).trim()).toBe('main');
    expect(await s.repo.git('branch', '--list', 'feature/x')).toBe('');
    expect((await s.api('GET', `/api/projects/${project.id}/tasks`)).body.tasks).toEqual([]);
    // A task on the branch already checked out needs no switch.
    const here = await s.api('POST', `/api/projects/${project.id}/tasks`, {
      name: 'here',
      branch_name: 'main',
    });
    expect(here.status).toBe(201);
  });

  test('invalid fields are 422 (branch names git refuses included); a project outside git is 409', async () => {
    await using s = await startServer([]);
    const project = (await s.api('POST', '/api/projects', { name: 'App', workdir: s.repo.path })).body;
    const path = `/api/projects/${project.id}/tasks`;
    for (const [body, field] of [
      [{}, 'body.name'],
      [{ name: 'x' }, 'body.branch_name'],
      [{ name: 1, branch_name: 'ok' }, 'body.name'],
      [{ name: 'x', branch_name: ['a'] }, 'body.branch_name'],
      [{ name: 'x', branch_name: '' }, 'body.branch_name'],
      [{ name: 'x', branch_name: 'b'.repeat(256) }, 'body.branch_name'],
      [{ name: 'x'.repeat(5000), branch_name: 'ok' }, 'body.name'],
      [{ name: 'x', branch_name: 'ok', base: 'main' }, 'body'],
      [{ name: 'x', branch_name: 'two words' }, 'body.branch_name'],
      [{ name: 'x', branch_name: 'a..b' }, 'body.branch_name'],
      [{ name: 'x', branch_name: '-f' }, 'body.branch_name'],
      [{ name: 'x', branch_name: '@{-1}' }, 'body.branch_name'],
      [{ name: 'x', branch_name: 'x.lock' }, 'body.branch_name'],
      [{ name: 'x', branch_name: 'x\u0000y' }, 'body.branch_name'],
    ] as [unknown, string][]) {
      const answer = await s.api('POST', path, body);
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(answer.body.error, JSON.stringify(body).slice(0, 60)).toMatchObject({
        code: 'INVALID_PARAMS',
        details: { issues: expect.arrayContaining([{ field, message: expect.any(String) }]) },
      });
    }
    expect((await s.repo.git('branch', '--list')).trim()).toBe('* main');
    expect((await s.api('GET', `${path}?limit=0`)).status).toBe(422);

    const task = (await s.api('POST', path, { name: 'ok', branch_name: 'ok' })).body;
    for (const body of [{ name: '' }, { branch_name: 'bad name' }, { project_id: 'prj_x' }, { name: null }]) {
      const answer = await s.api('PUT', `/api/tasks/${task.id}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
    }
    for (const [method, route] of [
      ['GET', '/api/tasks/tsk_nope'],
      ['PUT', '/api/tasks/tsk_nope'],
      ['DELETE', '/api/tasks/tsk_nope'],
      ['GET', `/api/tasks/${'t'.repeat(1000)}`],
    ] as const) {
      const answer = await s.api(method, route, method === 'PUT' ? { name: 'x' } : undefined);
      expect(answer.status, `${method} ${route}`).toBe(404);
      expect(answer.body.error.code).toBe('TASK_NOT_FOUND');
    }

    await using plain = await createTempDir();
    const outside = (await s.api('POST', '/api/projects', { name: 'Plain', workdir: plain.path })).body;
    const refused = await s.api('POST', `/api/projects/${outside.id}/tasks`, { name: 'x', branch_name: 'x' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringContaining('git init'),
    });
  });

  test('two tasks created at once on one repository each get their branch, one after the other', async () => {
    await using s = await startServer([]);
    const project = (await s.api('POST', '/api/projects', { name: 'App', workdir: s.repo.path })).body;
    const answers = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        s.api('POST', `/api/projects/${project.id}/tasks`, { name, branch_name: `task/${name}` }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    const branches = (await s.repo.git('branch', '--format=%(refname:short)')).trim().split('\n').sort();
    expect(branches).toEqual(['main', 'task/a', 'task/b', 'task/c']);
    const tasks = (await s.api('GET', `/api/projects/${project.id}/tasks`)).body.tasks as Body[];
    expect(tasks.map((task) => task.branch_name).sort()).toEqual(['task/a', 'task/b', 'task/c']);
  });
});
