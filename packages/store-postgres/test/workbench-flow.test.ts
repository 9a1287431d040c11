import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import {
  type Body,
  eventually,
  planningScript,
  repoWithRemote,
  startWorkbench,
  taskInCoding,
  tempDir,
} from '../../workbench/test/harness.ts';
import { pgUrl } from './pg-test-store.ts';

// The workbench's five stages with every record in PostgreSQL, selected as a deployment selects it:
// WORKBENCH_DATABASE_URL (here a fresh database, so the default `keel` schema is this test's alone).

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new database on the test server; `drop` removes it (whatever still holds a connection to it). */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `keel_wb_flow_${randomBytes(6).toString('hex')}`;
  await onServer(pgUrl!, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(pgUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await onServer(pgUrl!, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

describe.skipIf(!pgUrl)('the five-stage flow on PostgreSQL', () => {
  test('init, plan, todos, coding and review keep their records in WORKBENCH_DATABASE_URL', {
    timeout: 120_000,
  }, async () => {
    const database = await freshDatabase();
    try {
      const repo = repoWithRemote(tempDir('pg-flow'), 'app', { 'a.txt': 'a\n' });
      let taskId: string;
      {
        await using wb = await startWorkbench(
          [
            ...planningScript(1, ['greet']),
            {
              when: { lastMessageIncludes: 'Do todo 1 of 1' },
              toolCalls: [{ name: 'write_file', arguments: { path: 'app/greeting.txt', content: 'hi\n' } }],
            },
            { when: { lastRole: 'tool' }, text: 'Done.' },
          ],
          { env: { WORKBENCH_DATABASE_URL: database.url } },
        );
        const { api } = wb;
        const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
        taskId = task.id;
        expect((await api('POST', `/api/tasks/${task.id}/run-all`)).status).toBe(202);
        const reviewed = await eventually(
          async () => {
            const view = (await api('GET', `/api/tasks/${task.id}`)).body;
            // The review session (the commit message's) is made once the reviewer's turn has ended.
            return (
              view.state === 'REVIEWING' && view.review?.status === 'done' && view.review_session_id && view
            );
          },
          'the review and the commit message session',
          60_000,
        );
        expect((reviewed.todos as Body[]).map((todo) => todo.status)).toEqual(['done']);
        expect(wb.model.remaining).toBe(0);
        // Nothing went to the SQLite file of the data directory.
        expect(existsSync(join(wb.home, 'workbench.db'))).toBe(false);
      }
      // Read back from the database itself, after the workbench closed its store.
      await onServer(database.url, async (client) => {
        const task = await client.query(`SELECT state FROM keel.workbench_tasks WHERE id = $1`, [taskId]);
        expect(task.rows).toEqual([{ state: 'REVIEWING' }]);
        const stages = await client.query(
          `SELECT stage FROM keel.workbench_task_sessions WHERE task_id = $1 ORDER BY stage`,
          [taskId],
        );
        expect(stages.rows.map((row) => row.stage)).toEqual(['init', 'plan', 'review']);
        const todos = await client.query(`SELECT status FROM keel.workbench_todos WHERE task_id = $1`, [
          taskId,
        ]);
        expect(todos.rows).toEqual([{ status: 'done' }]);
        const plans = await client.query(
          `SELECT count(*)::int AS count FROM keel.workbench_plan_versions WHERE task_id = $1`,
          [taskId],
        );
        expect(plans.rows[0].count).toBeGreaterThanOrEqual(1);
        const project = await client.query(`SELECT status FROM keel.workbench_projects`);
        expect(project.rows).toEqual([{ status: 'READY' }]);
      });
    } finally {
      await database.drop();
    }
  });
});
