// A database written when tasks kept their stage sessions in columns (plan_session_id, review_session_id,
// init_session_id) is upgraded in place: the values move to task_sessions (the one source of truth), and
// the task answers carry the same ids under the spec's field names.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '@keel/runtime/store';
import { describe, expect, test } from 'vitest';
import { migrations } from '../../src/store/index.ts';
import { startWorkbench, tempDir } from '../harness.ts';
import { sqliteDb } from '../sqlite-db.ts';

describe('the task_sessions migration', () => {
  test('a database at the old schema with sessions set migrates and answers the same', async () => {
    const home = tempDir('sessions-migrate');
    mkdirSync(home, { recursive: true });
    const before = migrations.findIndex((sql) => sql.includes('CREATE TABLE task_sessions'));
    expect(before).toBeGreaterThan(0);
    const old = openSqlite(join(home, 'workbench.db'), migrations.slice(0, before));
    old
      .prepare(
        "INSERT INTO projects (id, name, description, repositories, status, created_at, updated_at) VALUES ('project_1', 'p', '', '[]', 'READY', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
      )
      .run();
    const insert = old.prepare(
      `INSERT INTO tasks (id, project_id, description, prd_links, images, image_info, runner, branch, state, init, workspaces,
         init_session_id, plan_session_id, review_session_id, created_at, updated_at)
       VALUES (?, 'project_1', 'd', '[]', '[]', '[]', NULL, 'keel/b', ?, '{"status":"done","steps":[]}', '[]', ?, ?, ?,
         '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    );
    insert.run('task_all', 'REVIEWING', 'session_init', 'session_plan', 'session_review');
    insert.run('task_plan', 'PLANNING', 'session_init2', 'session_plan2', null);
    insert.run('task_none', 'CREATED', null, null, null);
    old.close();

    await using wb = await startWorkbench([], { configure: false, env: { WORKBENCH_HOME: home } });
    const ids = (body: Record<string, unknown>) => ({
      init_session_id: body.init_session_id,
      plan_session_id: body.plan_session_id,
      review_session_id: body.review_session_id,
    });
    expect(ids((await wb.api('GET', '/api/tasks/task_all')).body)).toEqual({
      init_session_id: 'session_init',
      plan_session_id: 'session_plan',
      review_session_id: 'session_review',
    });
    expect(ids((await wb.api('GET', '/api/tasks/task_plan')).body)).toEqual({
      init_session_id: 'session_init2',
      plan_session_id: 'session_plan2',
      review_session_id: null,
    });
    expect(ids((await wb.api('GET', '/api/tasks/task_none')).body)).toEqual({
      init_session_id: null,
      plan_session_id: null,
      review_session_id: null,
    });
    const listed = (await wb.api('GET', '/api/tasks?project_id=project_1')).body.tasks;
    expect(listed.map(ids)).toEqual([
      {
        init_session_id: 'session_init',
        plan_session_id: 'session_plan',
        review_session_id: 'session_review',
      },
      { init_session_id: null, plan_session_id: null, review_session_id: null },
      { init_session_id: 'session_init2', plan_session_id: 'session_plan2', review_session_id: null },
    ]);
    // The relation is the source of truth: the old columns are gone, the rows are there.
    const { tasks } = wb.workbench.services;
    const db = sqliteDb(wb.workbench.services);
    const columns = (db.prepare('PRAGMA table_info(tasks)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('plan_session_id');
    expect(await tasks.store.sessionOf('task_all', 'review')).toBe('session_review');
    expect(db.prepare('SELECT COUNT(*) AS n FROM task_sessions').get()).toEqual({ n: 5 });
    // A deleted task's rows go with it.
    expect((await wb.api('DELETE', '/api/tasks/task_all')).status).toBe(204);
    expect(db.prepare('SELECT COUNT(*) AS n FROM task_sessions').get()).toEqual({ n: 2 });
  });
});
