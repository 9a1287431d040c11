import { eventually } from '@keel/testkit';
import type { Task, TaskState, WorkbenchStore } from '@keel/workbench';
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { createPostgresWorkbenchStore } from '../src/workbench/index.ts';
import { dropSchema, pgUrl, randomSchema } from './pg-test-store.ts';

// Two workbench stores on one schema, each with its own pool: as far as PostgreSQL can tell, two workbench
// processes changing the same task at the same time.

const flow: TaskState[] = [
  'CREATED',
  'INITIALIZING',
  'PLANNING',
  'PLAN_LOCKED',
  'TODO_READY',
  'CODING',
  'REVIEWING',
  'DONE',
];

/** Two stores (two "processes") on a fresh schema with one task; closes them and drops the schema after. */
async function twoProcesses(
  body: (world: { a: WorkbenchStore; b: WorkbenchStore; task: Task; schema: string }) => Promise<void>,
) {
  const schema = randomSchema();
  const a = await createPostgresWorkbenchStore({ url: pgUrl!, schema });
  const b = await createPostgresWorkbenchStore({ url: pgUrl!, schema });
  try {
    const project = await a.projects.create({
      name: 'p',
      description: '',
      repositories: [],
      default_runner: null,
    });
    const task = await a.tasks.create({
      id: 'task_race',
      project_id: project.id,
      description: 'd',
      prd_links: [],
      images: [],
      runner: null,
      branch: 'b',
    });
    await body({ a, b, task, schema });
  } finally {
    await Promise.all([a.close(), b.close()]);
    await dropSchema(pgUrl!, schema);
  }
}

describe.skipIf(!pgUrl)('the PostgreSQL workbench store across processes', () => {
  test('two processes moving one task held by a third both wait, then each moves it from a different state', () =>
    twoProcesses(async ({ a, b, task, schema }) => {
      // A third connection holds the task's row; both moves start while it does.
      const holder = new pg.Client({ connectionString: pgUrl });
      const watcher = new pg.Client({ connectionString: pgUrl });
      await Promise.all([holder.connect(), watcher.connect()]);
      try {
        await holder.query('BEGIN');
        await holder.query(`SELECT 1 FROM "${schema}".workbench_tasks WHERE id = $1 FOR UPDATE`, [task.id]);
        const seen: TaskState[] = [];
        const advance = (current: Task) => {
          seen.push(current.state);
          return flow[flow.indexOf(current.state) + 1]!;
        };
        const moves = [a.tasks.move(task.id, advance), b.tasks.move(task.id, advance)];
        // Both are queued behind the holder's lock (a plain read would not wait, and both would read CREATED).
        // Asked on another connection (inside the holder's transaction pg_stat_activity is a snapshot); the
        // second waiter queues behind the first, so both are counted as waiting on a lock of this schema.
        await eventually(async () => {
          const waiting = await watcher.query<{ count: string }>(
            `SELECT count(*) AS count FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
            [`%"${schema}".workbench_tasks%`],
          );
          return Number(waiting.rows[0]!.count) === 2;
        });
        await holder.query('COMMIT');
        const results = await Promise.all(moves);
        expect(results.map((result) => result.moved)).toEqual([true, true]);
        expect([...seen].sort()).toEqual(['CREATED', 'INITIALIZING']);
        expect((await a.tasks.get(task.id)).state).toBe('PLANNING');
      } finally {
        await Promise.all([holder.end(), watcher.end()]);
      }
    }));

  test('seven moves racing from two processes walk the task through every state once', () =>
    twoProcesses(async ({ a, b, task }) => {
      const seen: TaskState[] = [];
      const advance = (current: Task) => {
        seen.push(current.state);
        return flow[flow.indexOf(current.state) + 1] ?? current.state;
      };
      const results = await Promise.all(
        Array.from({ length: 7 }, (_, index) => (index % 2 === 0 ? a : b).tasks.move(task.id, advance)),
      );
      expect(results.every((result) => result.moved)).toBe(true);
      expect([...seen].sort()).toEqual([...flow.slice(0, 7)].sort());
      expect((await b.tasks.get(task.id)).state).toBe('DONE');
    }));

  test('plan versions and todos written by both at once get distinct numbers and gapless positions', () =>
    twoProcesses(async ({ a, b, task }) => {
      const versions = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 === 0 ? a : b).tasks.addPlanVersion(task.id, `# v${index}`, 'ai', null),
        ),
      );
      expect(versions.map((version) => version.version).sort((x, y) => x - y)).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
      ]);
      const item = (title: string) => ({ title, description: '', expected_output: '' });
      await a.tasks.replaceTodos(task.id, [item('first')]);
      await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 === 0 ? a : b).tasks.insertTodo(task.id, item(`t${index}`), 1),
        ),
      );
      const todos = await b.tasks.todos(task.id);
      expect(todos.map((todo) => todo.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect(todos.at(-1)?.title).toBe('first');
    }));
});
