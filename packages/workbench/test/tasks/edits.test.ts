// The user's hand edits: the plan (versions and diffs), the todo list in TODO_READY, the commit message and
// the MR's title and description in review. Each is logged in the stage's session as a user action.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  type Api,
  type Body,
  eventually,
  knowledgeScript,
  planningScript,
  repoWithRemote,
  startWorkbench,
  taskInCoding,
  tempDir,
} from '../harness.ts';

/** A READY project and a task through init and its first plan draft (idle again), in PLANNING. */
async function plannedTask(api: Api, path: string): Promise<Body> {
  const project = (
    await api('POST', '/api/projects', { name: 'p', repositories: [{ path, type: 'custom' }] })
  ).body;
  await eventually(
    async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
    'READY',
  );
  const task = (await api('POST', '/api/tasks', { project_id: project.id, description: 'Edit me' })).body;
  await eventually(
    async () => (await api('GET', `/api/tasks/${task.id}`)).body.init.status === 'done',
    'init',
  );
  const confirmed = (await api('POST', `/api/tasks/${task.id}/confirm-init`)).body;
  await eventually(
    async () =>
      (await api('GET', `/api/sessions/${confirmed.plan_session_id}/status`)).body.status === 'succeeded',
    'the draft',
  );
  return (await api('GET', `/api/tasks/${task.id}`)).body;
}

/** The user actions logged in a session. */
async function userActions(api: Api, sessionId: string): Promise<Body[]> {
  const { entries } = (await api('GET', `/api/sessions/${sessionId}/logs?limit=1000`)).body;
  return entries.map((entry: Body) => entry.event).filter((event: Body) => event.type === 'user_action');
}

describe('editing the plan', () => {
  test('each save is a new version with a diff, logged; the next turn starts from it; locked plans refuse', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('edit-plan'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench([
      ...planningScript(1, ['one']),
      { when: { lastMessageIncludes: 'Keep going' }, text: '# Plan\n\nEdited by hand.\n\nAnd more.' },
    ]);
    const { api } = wb;
    const task = await plannedTask(api, repo.dir);
    expect(task.plan).toBe('# Plan\n\nDo it.\n');

    const bad = await api('PUT', `/api/tasks/${task.id}/plan`, { text: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PARAMS');
    expect(bad.body.error.message).toContain('content');
    const blank = await api('PUT', `/api/tasks/${task.id}/plan`, { content: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toContain('content');

    const saved = await api('PUT', `/api/tasks/${task.id}/plan`, { content: '# Plan\n\nEdited by hand.' });
    expect(saved.status).toBe(200);
    expect(saved.body.task.plan).toBe('# Plan\n\nEdited by hand.\n');
    expect(saved.body.version).toMatchObject({ version: 2, source: 'user' });
    expect(readFileSync(join(task.work_dir, 'plan.md'), 'utf8')).toBe('# Plan\n\nEdited by hand.\n');

    const versions = (await api('GET', `/api/tasks/${task.id}/plan/versions`)).body.versions;
    expect(versions.map((each: Body) => [each.version, each.source])).toEqual([
      [1, 'ai'],
      [2, 'user'],
    ]);
    expect((await api('GET', `/api/tasks/${task.id}/plan/versions/1`)).body.content).toBe(
      '# Plan\n\nDo it.\n',
    );
    const diff = (await api('GET', `/api/tasks/${task.id}/plan/diff`)).body;
    expect(diff).toMatchObject({ from: 1, to: 2, additions: 1, deletions: 1 });
    expect(diff.patch).toContain('-Do it.');
    expect(diff.patch).toContain('+Edited by hand.');
    expect((await api('GET', `/api/tasks/${task.id}/plan/diff?from=2&to=2`)).body).toMatchObject({
      patch: '',
      additions: 0,
    });
    const missing = await api('GET', `/api/tasks/${task.id}/plan/diff?from=1&to=9`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('PLAN_VERSION_NOT_FOUND');
    expect((await api('GET', `/api/tasks/${task.id}/plan/diff?from=zero`)).status).toBe(400);

    expect(await userActions(api, task.plan_session_id)).toEqual([
      expect.objectContaining({ action: 'edit_plan', data: expect.objectContaining({ version: 2 }) }),
    ]);

    // The next turn is told of the hand edit and starts from it.
    expect((await api('POST', `/api/tasks/${task.id}/plan`, { message: 'Keep going' })).status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan?.includes('And more.'),
      'refined plan',
    );
    const refine = wb.model.chatRequests.find((request) =>
      JSON.stringify(request.messages).includes('Keep going'),
    );
    expect(JSON.stringify(refine?.messages)).toContain('edited plan.md by hand');
    await eventually(
      async () =>
        (await api('GET', `/api/tasks/${task.id}/plan/versions`)).body.versions.at(-1)?.source === 'ai',
      'version 3',
    );
    await eventually(
      async () =>
        (await api('GET', `/api/sessions/${task.plan_session_id}/status`)).body.status === 'succeeded',
      'idle',
    );

    expect((await api('POST', `/api/tasks/${task.id}/lock-plan`)).status).toBe(202);
    const locked = await api('PUT', `/api/tasks/${task.id}/plan`, { content: 'late' });
    expect(locked.status).toBe(409);
    expect(locked.body.error.code).toBe('INVALID_STATE');
    expect(locked.body.error.message).toContain('needs the task in PLANNING');
  });
});

describe('editing the todo list', () => {
  test('add, edit, remove and reorder while TODO_READY: todo.json follows, each is logged; coding refuses', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('edit-todos'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench(planningScript(1, ['one', 'two']));
    const { api } = wb;
    const task = await plannedTask(api, repo.dir);
    expect((await api('POST', `/api/tasks/${task.id}/lock-plan`)).status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.state === 'TODO_READY',
      'TODO_READY',
    );
    await eventually(
      async () =>
        (await api('GET', `/api/sessions/${task.plan_session_id}/status`)).body.status === 'succeeded',
      'idle',
    );
    const base = `/api/tasks/${task.id}/todos`;

    const bad = await api('POST', base, { description: 'no title' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('title');
    const added = await api('POST', base, { title: 'zero', description: 'First of all', position: 1 });
    expect(added.status).toBe(201);
    expect(added.body.todo).toMatchObject({ title: 'zero', position: 1, status: 'pending' });
    expect(added.body.todos.map((todo: Body) => todo.title)).toEqual(['zero', 'one', 'two']);
    const [zero, one, two] = added.body.todos as Body[];

    expect((await api('PATCH', `${base}/${one?.id}`, {})).status).toBe(400);
    const edited = await api('PATCH', `${base}/${one?.id}`, { title: 'one!', expected_output: 'it works' });
    expect(edited.status).toBe(200);
    expect(edited.body.todo).toMatchObject({
      title: 'one!',
      description: 'Do one',
      expected_output: 'it works',
    });
    expect((await api('PATCH', `${base}/todo_missing`, { title: 'x' })).body.error.code).toBe(
      'TODO_NOT_FOUND',
    );

    const removed = await api('DELETE', `${base}/${zero?.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.todos.map((todo: Body) => [todo.position, todo.title])).toEqual([
      [1, 'one!'],
      [2, 'two'],
    ]);

    const partial = await api('PUT', `${base}/order`, { todo_ids: [two?.id] });
    expect(partial.status).toBe(400);
    expect(partial.body.error.message).toContain('todo_ids');
    const reordered = await api('PUT', `${base}/order`, { todo_ids: [two?.id, one?.id] });
    expect(reordered.status).toBe(200);
    expect(reordered.body.todos.map((todo: Body) => [todo.position, todo.title])).toEqual([
      [1, 'two'],
      [2, 'one!'],
    ]);
    const file = JSON.parse(readFileSync(join(task.work_dir, 'todo.json'), 'utf8'));
    expect(file.map((item: Body) => item.title)).toEqual(['two', 'one!']);
    expect(file[1].expected_output).toBe('it works');

    expect((await userActions(api, task.plan_session_id)).map((event) => event.action)).toEqual([
      'add_todo',
      'edit_todo',
      'remove_todo',
      'reorder_todos',
    ]);

    expect((await api('POST', `/api/tasks/${task.id}/start-coding`)).body.state).toBe('CODING');
    const late = await api('POST', base, { title: 'late' });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: 'INVALID_STATE', details: { state: 'CODING' } });
    expect(late.body.error.message).toContain('needs the task in TODO_READY');
  });
});

describe('editing the commit message and the MR', () => {
  test('in review the commit message, MR title and description are the user’s; submit uses them', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('edit-review'), 'app', { 'a.txt': 'a\n' }, { pushOptions: true });
    await using wb = await startWorkbench([
      ...knowledgeScript(1),
      ...planningScript(0, ['one']),
      {
        when: { lastMessageIncludes: 'Do todo 1 of 1' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/one.txt', content: '1\n' } }],
      },
      { when: { lastRole: 'tool' }, text: 'Done.' },
      { when: { lastMessageIncludes: 'Write the commit message' }, text: 'feat: by the model' },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom', provider: 'gitlab' } as Body]);
    const early = await api('PUT', `/api/tasks/${task.id}/commit-message`, { commit_message: 'x' });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toContain('needs the task in REVIEWING');
    expect((await api('POST', `/api/todos/${task.todos[0].id}/execute`)).status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.commit_message === 'feat: by the model',
      'the automatic commit message',
    );
    const reviewId = (await api('GET', `/api/tasks/${task.id}`)).body.review_session_id;
    await eventually(
      async () => (await api('GET', `/api/sessions/${reviewId}/status`)).body.status === 'succeeded',
      'idle',
    );

    const empty = await api('PUT', `/api/tasks/${task.id}/commit-message`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain('commit_message');
    const wrong = await api('PUT', `/api/tasks/${task.id}/commit-message`, { mr_title: 5 });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toContain('mr_title');
    const edited = await api('PUT', `/api/tasks/${task.id}/commit-message`, {
      commit_message: 'feat: by hand\n\nWritten by the user.',
      mr_title: 'My MR',
      mr_description: 'Please review.',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      commit_message: 'feat: by hand\n\nWritten by the user.',
      mr_title: 'My MR',
      mr_description: 'Please review.',
    });
    expect(await userActions(api, reviewId)).toEqual([
      expect.objectContaining({
        action: 'edit_commit_message',
        data: { fields: ['commit_message', 'mr_title', 'mr_description'] },
      }),
    ]);

    const submitted = await api('POST', `/api/tasks/${task.id}/submit-mr`);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(repo.git('log', '-1', '--format=%s', task.branch)).toBe('feat: by hand');
    expect(repo.pushOptions()).toContain('merge_request.title=My MR');
    expect(repo.pushOptions()).toContain('merge_request.description=Please review.');
  });
});
