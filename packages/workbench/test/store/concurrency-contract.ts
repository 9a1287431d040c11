import { describe, expect, test } from 'vitest';
import type { Task, TaskState, WorkbenchStore } from '../../src/store/index.ts';
import { aProject, aTask } from './contract-helpers.ts';

const flow: TaskState[] = ['CREATED', 'INITIALIZING', 'PLANNING', 'PLAN_LOCKED', 'TODO_READY', 'CODING'];
const item = (title: string) => ({ title, description: '', expected_output: '' });

/**
 * Calls started together on one store: each multi-row change still sees the others' results (SQLite by
 * being synchronous; a networked dialect by its transactions and row locks).
 */
export function describeConcurrencyContract(storeOf: () => WorkbenchStore): void {
  describe('calls started together', () => {
    test('moves, todo changes, plan versions and stage sessions of one task take turns', async () => {
      const store = storeOf();
      const task = await aTask(store, (await aProject(store)).id);
      const seen: TaskState[] = [];
      const advance = (current: Task) => {
        seen.push(current.state);
        return flow[flow.indexOf(current.state) + 1] ?? current.state;
      };
      const moves = await Promise.all(flow.slice(1).map(() => store.tasks.move(task.id, advance)));
      expect(moves.every((move) => move.moved)).toBe(true);
      expect([...seen].sort()).toEqual(flow.slice(0, -1).sort());
      expect((await store.tasks.get(task.id)).state).toBe('CODING');

      await store.tasks.replaceTodos(task.id, [item('last')]);
      const inserted = await Promise.all(
        Array.from({ length: 8 }, (_, index) => store.tasks.insertTodo(task.id, item(`t${index}`), 1)),
      );
      const todos = await store.tasks.todos(task.id);
      expect(todos.map((todo) => todo.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(todos.at(-1)?.title).toBe('last');
      await Promise.all(inserted.slice(0, 4).map((todo) => store.tasks.removeTodo(todo.id)));
      expect((await store.tasks.todos(task.id)).map((todo) => todo.position)).toEqual([1, 2, 3, 4, 5]);

      const versions = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          store.tasks.addPlanVersion(task.id, `# ${index}`, 'ai', null),
        ),
      );
      expect(versions.map((version) => version.version).sort()).toEqual([1, 2, 3, 4, 5, 6]);

      await Promise.all(
        ['init', 'plan', 'review'].map((stage) => store.tasks.setSession(task.id, stage, stage)),
      );
      expect(await store.tasks.get(task.id)).toMatchObject({
        init_session_id: 'init',
        plan_session_id: 'plan',
        review_session_id: 'review',
      });
    });

    test('creates of one skill name at once: one is made, every other is SKILL_EXISTS', async () => {
      const store = storeOf();
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, index) =>
          store.skills.create({ name: 'twice', description: `${index}` }),
        ),
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) {
        if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'SKILL_EXISTS' });
      }
      expect((await store.skills.list()).map((skill) => skill.name)).toEqual(['twice']);
    });
  });
}
