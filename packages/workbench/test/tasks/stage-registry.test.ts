// Issue #24: a workbench stage is a module. A stage registered in the registry (here a sixth, "06 Security
// review", defined only in test/tasks/security-review-stage.ts) is in GET /api/flow, in the table of moves (its action is refused in
// the wrong state by the same check as every other) and gets its endpoint, with no other file edited.
import * as wire from '@keel/protocol/workbench';
import { describe, expect, test } from 'vitest';
import { buildFlow, defaultStages } from '../../src/tasks/index.ts';
import { type Body, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';
import { sqliteDb } from '../sqlite-db.ts';
import { securityReviewStage } from './security-review-stage.ts';

describe('a stage is a module of the registry', () => {
  test('a sixth stage registered is in GET /api/flow, the table of moves and the routes', async () => {
    const repo = repoWithRemote(tempDir('stage6'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench([], {
      workbench: { stages: [...defaultStages, securityReviewStage] },
    });
    const flow = await wb.api('GET', '/api/flow');
    expect(flow.status).toBe(200);
    expect(flow.body.stages.map((stage: Body) => [stage.number, stage.title])).toEqual([
      ['01', 'Initialization'],
      ['02', 'Plan'],
      ['03', 'Todos'],
      ['04', 'Coding'],
      ['05', 'Review'],
      ['06', 'Security review'],
    ]);
    expect(flow.body.stages.at(-1)).toEqual({
      number: '06',
      key: 'security',
      title: 'Security review',
      states: ['SECURITY_REVIEW'],
    });
    expect(flow.body.states).toEqual([...wire.taskStates, 'SECURITY_REVIEW']);
    const actions = flow.body.moves.map((move: Body) => move.action);
    // The stage's row sits after the five stages' rows, before cancel and re-open (which it shares).
    expect(actions.slice(-3)).toEqual(['security_scan', 'cancel', 'reopen']);
    expect(flow.body.moves.find((move: Body) => move.action === 'cancel').from).toContain('SECURITY_REVIEW');

    const project = (
      await wb.api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    const task = (await wb.api('POST', '/api/tasks', { project_id: project.id, description: 'Scan it' }))
      .body;
    // In the wrong state the new action is refused by the table, like every other.
    const refused = await wb.api('POST', `/api/tasks/${task.id}/security-scan`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'INVALID_STATE',
      details: { state: 'CREATED', action: 'security_scan', allowed: ['init', 'cancel'] },
    });
    // A test's back door into REVIEWING: there the action is allowed, and the task says so.
    sqliteDb(wb.workbench.services)
      .prepare('UPDATE tasks SET state = ? WHERE id = ?')
      .run('REVIEWING', task.id);
    const scanned = await wb.api('POST', `/api/tasks/${task.id}/security-scan`);
    expect(scanned.status).toBe(200);
    expect(scanned.body.allowed_actions).toContain('security_scan');
    expect(scanned.body.allowed_actions).toEqual(
      wb.workbench.services.tasks.flow.allowedActions('REVIEWING'),
    );
  });

  test('the default registry is the spec five, and a workbench without the sixth has no trace of it', async () => {
    expect(defaultStages.map((stage) => stage.key)).toEqual(['init', 'plan', 'todos', 'coding', 'review']);
    await using wb = await startWorkbench([], { configure: false });
    const flow = (await wb.api('GET', '/api/flow')).body;
    expect(flow.stages).toHaveLength(5);
    expect(flow.moves.map((move: Body) => move.action)).not.toContain('security_scan');
    expect((await wb.api('POST', '/api/tasks/task_x/security-scan')).status).toBe(404);
  });

  test('two stages of one key are refused when the flow is built', () => {
    expect(() => buildFlow([...defaultStages, { ...securityReviewStage, key: 'review' }])).toThrow(
      /Two stages of the flow have the key 'review'/,
    );
  });
});
