// Issue #37: the setup again on a task that is past init: a user told of an environment problem (the
// repository's test runner was never installed because the project's setup was off) turns run_setup on and
// runs the setup from the task, without starting a new task. The steps show as during init; in CODING the
// baseline is taken again at once, the task's note goes, and the todo then runs with no repair turn.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as hostile from '@keel/testkit/fuzz';
import { describe, expect, test } from 'vitest';
import {
  type Body,
  eventually,
  planningScript,
  repoWithRemote,
  startWorkbench,
  taskInCoding,
  tempDir,
  todoEnded,
} from '../harness.ts';
import { npmRepository } from '../setup/npm-fixture.ts';

const hasBwrap = existsSync('/usr/bin/bwrap');

describe.skipIf(!hasBwrap)('the setup again, from a task past init', () => {
  test('an environment problem fixed by turning setup on and running it from the task', {
    timeout: 180_000,
  }, async () => {
    const repo = npmRepository(tempDir('setup-again'));
    await using wb = await startWorkbench([
      ...planningScript(1, ['note']),
      {
        when: { lastMessageIncludes: 'Do todo 1 of 1' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/notes.txt', content: 'noted\n' } }],
      },
      { when: { lastRole: 'tool' }, text: 'Wrote a note.' },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'frontend' }]);
    const todo = (task.todos as Body[])[0];
    // Setup was off: `npm test` cannot find the dependency's program, an environment problem.
    expect((await api('POST', `/api/todos/${todo.id}/execute`)).status).toBe(202);
    expect(await todoEnded(api, todo.id)).toMatchObject({
      status: 'failed',
      error_code: 'ENVIRONMENT_ERROR',
    });
    expect((await api('GET', `/api/tasks/${task.id}`)).body.error).toMatch(/^Environment problem:/);

    // Refused from another origin: it runs the install scripts with the network on.
    const port = hostile.portOf(wb.base);
    const foreign = await hostile.rawRequest(port, {
      method: 'POST',
      path: `/api/tasks/${task.id}/setup`,
      headers: { host: `localhost:${port}`, origin: 'http://localhost:3000' },
    });
    expect(foreign.status).toBe(403);
    expect(hostile.errorOf(foreign)?.code).toBe('PERMISSION_DENIED');

    await api('PUT', `/api/projects/${task.project_id}`, { run_setup: true });
    const started = await api('POST', `/api/tasks/${task.id}/setup`);
    expect(started.status).toBe(202);
    expect(started.body.state).toBe('CODING');
    expect(started.body.init.steps.find((step: Body) => step.name === 'setup:app').status).toBe('pending');
    // The second request while it runs: the task is busy.
    const twice = await api('POST', `/api/tasks/${task.id}/setup`);
    expect([202, 409]).toContain(twice.status);
    if (twice.status === 409) expect(twice.body.error.code).toBe('TASK_BUSY');

    const fixed = await eventually(
      async () => {
        const view = (await api('GET', `/api/tasks/${task.id}`)).body;
        return view.baseline?.status === 'done' && view.baseline.results[0]?.outcome === 'passed' && view;
      },
      'the setup and the baseline after it',
      120_000,
    );
    const step = fixed.init.steps.find((each: Body) => each.name === 'setup:app');
    expect(step).toMatchObject({ status: 'done', detail: expect.stringMatching(/^`npm ci` succeeded in/) });
    expect(fixed.error).toBeNull();
    expect(fixed.init.status).toBe('done');
    expect(existsSync(join(fixed.workspaces[0].dir, 'node_modules', '.bin', 'tiny-test'))).toBe(true);
    const logs = (await api('GET', `/api/sessions/${fixed.init_session_id}/logs?limit=1000`)).body.entries;
    const setupEvents = logs
      .map((entry: Body) => entry.event)
      .filter((event: Body) => event.type === 'step' && event.step === 'setup:app');
    expect(setupEvents.map((event: Body) => event.status)).toEqual(['running', 'done', 'running', 'done']);

    expect((await api('POST', `/api/todos/${todo.id}/execute`)).status).toBe(202);
    const done = await todoEnded(api, todo.id);
    expect(done).toMatchObject({ status: 'done', error_code: null });
    expect(done.checks[0]).toMatchObject({ outcome: 'passed', baseline: 'passed' });
    expect(
      wb.model.chatRequests.some((request) =>
        JSON.stringify(request.messages).includes('These checks fail after your changes'),
      ),
    ).toBe(false);
  });

  test('refused before init is done, without a setup command, and for an unknown task', {
    timeout: 120_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('setup-none'), 'lib', { 'README.md': '# lib\n' });
    await using wb = await startWorkbench(planningScript(1, ['x']));
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'backend' }]);
    const none = await api('POST', `/api/tasks/${task.id}/setup`);
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('NO_SETUP_COMMAND');
    expect(none.body.error.message).toContain(`PUT /api/projects/${task.project_id}`);
    const unknown = await api('POST', '/api/tasks/task_nope/setup');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('TASK_NOT_FOUND');

    const fresh = (await api('POST', '/api/tasks', { project_id: task.project_id, description: 'B' })).body;
    const early = await api('POST', `/api/tasks/${fresh.id}/setup`);
    expect(early.status).toBe(409);
    expect(['INVALID_STATE', 'TASK_BUSY']).toContain(early.body.error.code);
  });
});
