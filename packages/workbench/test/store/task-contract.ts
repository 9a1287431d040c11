import { describe, expect, test } from 'vitest';
import type { Task, TaskState, WorkbenchStore } from '../../src/store/index.ts';
import { aProject, aTask, rejection } from './contract-helpers.ts';

const item = (title: string) => ({ title, description: `${title}.`, expected_output: 'done' });
const titles = (todos: { title: string; position: number }[]) =>
  todos.map((todo) => `${todo.position}:${todo.title}`);

/** The tasks part of the contract: tasks, their stage sessions, todos and plan versions. */
export function describeTaskContract(storeOf: () => WorkbenchStore): void {
  describe('tasks', () => {
    test('created CREATED with its images; listed oldest first with the images as their sizes', async () => {
      const store = storeOf();
      const project = await aProject(store);
      const other = await aProject(store, 'other');
      const first = await aTask(store, project.id);
      const second = await aTask(store, project.id);
      const elsewhere = await aTask(store, other.id);
      expect(first).toMatchObject({
        project_id: project.id,
        state: 'CREATED',
        cancelled_from: null,
        init: { status: 'idle', steps: [] },
        workspaces: [],
        plan_session_id: null,
        images: [{ media_type: 'image/png', data: 'aGVsbG8=', filename: 'a.png' }],
      });
      expect(await store.tasks.get(first.id)).toEqual(first);
      expect(await store.tasks.exists(first.id)).toBe(true);
      expect(await store.tasks.exists('task_none')).toBe(false);
      const listed = await store.tasks.list(project.id);
      expect(listed.map((task) => task.id)).toEqual([first.id, second.id]);
      expect(listed[0]?.images).toEqual([{ media_type: 'image/png', filename: 'a.png', bytes: 5 }]);
      expect((await store.tasks.list()).map((task) => task.id)).toEqual([first.id, second.id, elsewhere.id]);
    });

    test('an unknown id is TASK_NOT_FOUND', async () => {
      const error = await rejection(storeOf().tasks.get('task_none'), 'TASK_NOT_FOUND');
      expect(error.message).toBe("No task 'task_none'.");
      expect(error.details).toEqual({ task_id: 'task_none' });
    });

    test('updated field by field; new images bring their sizes to the list', async () => {
      const store = storeOf();
      const task = await aTask(store, (await aProject(store)).id);
      const updated = await store.tasks.update(task.id, {
        commit_message: 'feat: x',
        error: null,
        images: [{ media_type: 'image/gif', data: 'aGVsbG8gd29ybGQ=' }],
      });
      expect(updated).toMatchObject({ commit_message: 'feat: x', description: task.description });
      expect((await store.tasks.list())[0]?.images).toEqual([{ media_type: 'image/gif', bytes: 11 }]);
    });

    test('move: one step that reads, asks and writes; CANCELLED keeps where it was', async () => {
      const store = storeOf();
      const task = await aTask(store, (await aProject(store)).id);
      const seen: TaskState[] = [];
      const to = (state: TaskState) => (current: Task) => {
        seen.push(current.state);
        return state;
      };
      const planning = await store.tasks.move(task.id, to('PLANNING'));
      expect(planning.moved).toBe(true);
      expect(planning.task).toMatchObject({ state: 'PLANNING', cancelled_from: null });
      expect(await store.tasks.move(task.id, to('PLANNING'))).toMatchObject({ moved: false });
      const cancelled = await store.tasks.move(task.id, to('CANCELLED'));
      expect(cancelled.task).toMatchObject({ state: 'CANCELLED', cancelled_from: 'PLANNING' });
      expect(seen).toEqual(['CREATED', 'PLANNING', 'PLANNING']);
      await expect(
        store.tasks.move(task.id, () => {
          throw new Error('not allowed');
        }),
      ).rejects.toThrow('not allowed');
      expect((await store.tasks.get(task.id)).state).toBe('CANCELLED');
      await rejection(store.tasks.move('task_none', to('DONE')), 'TASK_NOT_FOUND');
    });

    test('stage sessions: one per (task, stage), replaced, read into the task', async () => {
      const store = storeOf();
      const task = await aTask(store, (await aProject(store)).id);
      expect(await store.tasks.sessionOf(task.id, 'plan')).toBeNull();
      await store.tasks.setSession(task.id, 'plan', 'wses_1');
      const replaced = await store.tasks.setSession(task.id, 'plan', 'wses_2');
      await store.tasks.setSession(task.id, 'coding', 'wses_3');
      expect(replaced.plan_session_id).toBe('wses_2');
      expect(await store.tasks.sessionOf(task.id, 'plan')).toBe('wses_2');
      expect(await store.tasks.sessionOf(task.id, 'coding')).toBe('wses_3');
      expect((await store.tasks.list())[0]?.plan_session_id).toBe('wses_2');
    });

    test('todos: replaced in order, inserted, reordered, updated and removed with positions kept gapless', async () => {
      const store = storeOf();
      const task = await aTask(store, (await aProject(store)).id);
      const todos = await store.tasks.replaceTodos(task.id, [item('a'), item('b'), item('c')]);
      expect(titles(todos)).toEqual(['1:a', '2:b', '3:c']);
      expect(todos[0]).toMatchObject({ status: 'pending', origin: { kind: 'plan' }, session_id: null });
      const inserted = await store.tasks.insertTodo(task.id, { ...item('x'), origin: { kind: 'plan' } }, 2);
      expect(inserted.position).toBe(2);
      await store.tasks.insertTodo(task.id, item('end'), 99);
      expect(titles(await store.tasks.todos(task.id))).toEqual(['1:a', '2:x', '3:b', '4:c', '5:end']);
      await store.tasks.removeTodo(inserted.id);
      const left = await store.tasks.todos(task.id);
      expect(titles(left)).toEqual(['1:a', '2:b', '3:c', '4:end']);
      const reordered = await store.tasks.reorderTodos(
        task.id,
        [...left].reverse().map((todo) => todo.id),
      );
      expect(titles(reordered)).toEqual(['1:end', '2:c', '3:b', '4:a']);
      const done = await store.tasks.updateTodo(left[0]!.id, { status: 'done', checks: null });
      expect(done).toMatchObject({ title: 'a', status: 'done' });
      expect(await store.tasks.todo(done.id)).toEqual(done);
      expect(titles(await store.tasks.replaceTodos(task.id, [item('only')]))).toEqual(['1:only']);
      const error = await rejection(store.tasks.todo(done.id), 'TODO_NOT_FOUND');
      expect(error.details).toEqual({ todo_id: done.id });
      await rejection(store.tasks.removeTodo(done.id), 'TODO_NOT_FOUND');
    });

    test('plan versions: numbered from 1, read back, an unknown one PLAN_VERSION_NOT_FOUND', async () => {
      const store = storeOf();
      const task = await aTask(store, (await aProject(store)).id);
      expect(await store.tasks.planVersions(task.id)).toEqual([]);
      const first = await store.tasks.addPlanVersion(task.id, '# v1', 'ai', 'wses_1');
      const second = await store.tasks.addPlanVersion(task.id, '# v2', 'user', null);
      expect(first).toMatchObject({ task_id: task.id, version: 1, content: '# v1', source: 'ai' });
      expect(second).toMatchObject({ version: 2, session_id: null });
      expect(await store.tasks.planVersions(task.id)).toEqual([first, second]);
      expect(await store.tasks.planVersion(task.id, 2)).toEqual(second);
      const error = await rejection(store.tasks.planVersion(task.id, 3), 'PLAN_VERSION_NOT_FOUND');
      expect(error.details).toEqual({ task_id: task.id, version: 3 });
    });

    test("delete takes the task's todos, stage sessions and plan versions", async () => {
      const store = storeOf();
      const task = await aTask(store, (await aProject(store)).id);
      const [todo] = await store.tasks.replaceTodos(task.id, [item('a')]);
      await store.tasks.setSession(task.id, 'plan', 'wses_1');
      await store.tasks.addPlanVersion(task.id, '# v1', 'ai', null);
      await store.tasks.remove(task.id);
      await rejection(store.tasks.get(task.id), 'TASK_NOT_FOUND');
      await rejection(store.tasks.todo(todo!.id), 'TODO_NOT_FOUND');
      expect(await store.tasks.todos(task.id)).toEqual([]);
      expect(await store.tasks.sessionOf(task.id, 'plan')).toBeNull();
      expect(await store.tasks.planVersions(task.id)).toEqual([]);
    });

    test('crash repair: running todos, init steps and baselines fail; the tasks it changed are answered', async () => {
      const store = storeOf();
      const project = await aProject(store);
      const task = await aTask(store, project.id);
      const calm = await aTask(store, project.id);
      const [todo] = await store.tasks.replaceTodos(task.id, [item('a')]);
      await store.tasks.updateTodo(todo!.id, { status: 'running' });
      await store.tasks.update(task.id, {
        init: {
          status: 'running',
          steps: [
            { name: 'skills', status: 'done' },
            { name: 'knowledge', status: 'running' },
          ],
        },
      });
      const checking = await aTask(store, project.id);
      const started_at = new Date().toISOString();
      await store.tasks.update(checking.id, {
        baseline: { status: 'running', results: [], error: null, started_at, ended_at: null },
      });
      const repaired = await store.tasks.failInterrupted();
      expect(repaired.map((each) => each.id).sort()).toEqual([task.id, checking.id].sort());
      expect((await store.tasks.get(checking.id)).baseline).toMatchObject({
        status: 'failed',
        error: expect.stringContaining(
          `interrupted: the workbench stopped; take it again with POST /api/tasks/${checking.id}/baseline`,
        ),
        started_at,
        ended_at: expect.any(String),
      });
      expect((await store.tasks.get(checking.id)).init.status).toBe('idle');
      expect((await store.tasks.todo(todo!.id)).status).toBe('failed');
      expect((await store.tasks.get(task.id)).init).toEqual({
        status: 'failed',
        steps: [
          { name: 'skills', status: 'done' },
          { name: 'knowledge', status: 'failed', error: 'interrupted' },
        ],
      });
      expect((await store.tasks.get(calm.id)).init.status).toBe('idle');
    });
  });
}
