import { describe, expect, test } from 'vitest';
import { allowedActions, moves, nextState, stages, taskStates } from '../../src/tasks/index.ts';
import { type Body, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';
import { sqliteDb } from '../sqlite-db.ts';

/** Every user action and the request that asks for it (`:todo` is a todo of the task), with a valid body. */
const endpoints: Record<string, [string, string, unknown?]> = {
  init: ['POST', '/api/tasks/:id/init'],
  confirm_init: ['POST', '/api/tasks/:id/confirm-init'],
  plan: ['POST', '/api/tasks/:id/plan'],
  lock_plan: ['POST', '/api/tasks/:id/lock-plan'],
  todo: ['POST', '/api/tasks/:id/todo'],
  start_coding: ['POST', '/api/tasks/:id/start-coding'],
  execute_todo: ['POST', '/api/todos/:todo/execute'],
  skip_todo: ['POST', '/api/todos/:todo/skip'],
  run_all: ['POST', '/api/tasks/:id/run-all'],
  baseline: ['POST', '/api/tasks/:id/baseline'],
  setup: ['POST', '/api/tasks/:id/setup'],
  review: ['POST', '/api/tasks/:id/review'],
  dismiss_finding: ['POST', '/api/tasks/:id/findings/finding_1/dismiss'],
  commit_message: ['POST', '/api/tasks/:id/commit-message'],
  refresh_merge_requests: ['POST', '/api/tasks/:id/merge-requests/refresh'],
  follow_up: ['POST', '/api/tasks/:id/follow-up', { todos: [{ title: 'Fix it' }] }],
  submit_mr: ['POST', '/api/tasks/:id/submit-mr'],
  cancel: ['POST', '/api/tasks/:id/cancel'],
  reopen: ['POST', '/api/tasks/:id/reopen'],
};

describe('the task state machine', () => {
  test('every user action of the table has an endpoint, and every state a way on (or is final)', () => {
    const userActions = [...new Set(moves.filter((move) => move.by === 'user').map((move) => move.action))];
    expect(userActions.sort()).toEqual(Object.keys(endpoints).sort());
    for (const state of taskStates) {
      if (state === 'DONE') expect(allowedActions(state)).toEqual(['refresh_merge_requests', 'follow_up']);
      else expect(allowedActions(state).length, state).toBeGreaterThan(0);
    }
    expect(nextState('CODING', 'finish_coding', null)).toBe('REVIEWING');
    expect(nextState('REVIEWING', 'submitted', null)).toBe('DONE');
    expect(nextState('CANCELLED', 'reopen', 'TODO_READY')).toBe('TODO_READY');
    expect(() => nextState('CREATED', 'submitted', null)).toThrow(/cannot submitted/);
  });

  test('GET /api/flow: the stages cover every state but CANCELLED once, with the table of moves', async () => {
    await using wb = await startWorkbench();
    const flow = await wb.api('GET', '/api/flow');
    expect(flow.status).toBe(200);
    expect(flow.body.stages.map((stage: Body) => [stage.number, stage.title])).toEqual([
      ['01', 'Initialization'],
      ['02', 'Plan'],
      ['03', 'Todos'],
      ['04', 'Coding'],
      ['05', 'Review'],
    ]);
    const staged = flow.body.stages.flatMap((stage: Body) => stage.states);
    expect([...staged, 'CANCELLED'].sort()).toEqual([...taskStates].sort());
    expect(flow.body.states).toEqual([...taskStates]);
    expect(flow.body.moves).toEqual(JSON.parse(JSON.stringify(moves)));
    expect(stages).toHaveLength(5);
  });

  test('every illegal move is refused with 409 INVALID_STATE naming the state and the allowed actions', {
    timeout: 60_000,
  }, async () => {
    const root = tempDir('sm');
    const repo = repoWithRemote(root, 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench();
    const project = (
      await wb.api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    const task = (await wb.api('POST', '/api/tasks', { project_id: project.id, description: 'State test' }))
      .body;
    const { tasks } = wb.workbench.services;
    const db = sqliteDb(wb.workbench.services);
    const [todo] = await tasks.store.replaceTodos(task.id, [
      { title: 't', description: '', expected_output: '' },
    ]);
    let refusals = 0;
    for (const state of taskStates) {
      const allowed = allowedActions(state);
      for (const [action, [method, path, body]] of Object.entries(endpoints)) {
        if (allowed.includes(action)) continue;
        // A test's back door: put the task in the state (the service itself never writes it directly).
        db.prepare('UPDATE tasks SET state = ? WHERE id = ?').run(state, task.id);
        const response = await wb.api(
          method,
          path.replace(':id', task.id).replace(':todo', todo?.id ?? ''),
          body,
        );
        expect(response.status, `${action} from ${state}`).toBe(409);
        expect(response.body.error, `${action} from ${state}`).toMatchObject({
          code: 'INVALID_STATE',
          details: { state, action, allowed },
        });
        refusals++;
      }
    }
    expect(refusals).toBeGreaterThan(80);
    const after = (await wb.api('GET', `/api/tasks/${task.id}`)).body as Body;
    expect(after.state).toBe('CANCELLED');
  });

  test('the state field is never written directly; cancel and re-open return to the same state', async () => {
    const root = tempDir('sm2');
    const repo = repoWithRemote(root, 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench();
    const project = (
      await wb.api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    const task = (await wb.api('POST', '/api/tasks', { project_id: project.id, description: 'x' })).body;
    const direct = await wb.api('PUT', `/api/tasks/${task.id}`, { state: 'DONE' });
    expect(direct.status).toBe(409);
    expect(direct.body.error).toMatchObject({
      code: 'INVALID_STATE',
      details: { state: 'CREATED', allowed: ['init', 'cancel'] },
    });
    expect((await wb.api('GET', `/api/tasks/${task.id}`)).body.state).toBe('CREATED');
    const cancelled = await wb.api('POST', `/api/tasks/${task.id}/cancel`);
    expect(cancelled.body).toMatchObject({
      state: 'CANCELLED',
      cancelled_from: 'CREATED',
      allowed_actions: ['reopen'],
    });
    expect((await wb.api('POST', `/api/tasks/${task.id}/reopen`)).body.state).toBe('CREATED');
    const init = await wb.api('POST', `/api/tasks/${task.id}/init`);
    expect(init.status).toBe(409);
    expect(init.body.error.code).toBe('PROJECT_NOT_READY');
  });
});
