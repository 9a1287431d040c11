// `Tasks`, the stages' face over the store contract: what it adds to the records (one stage session per
// task and stage, even when requests race; moves only through the flow; each change told).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createSqliteWorkbenchStore, type SqliteWorkbenchStore } from '../../src/store/index.ts';
import { buildFlow, defaultStages, type Task, Tasks } from '../../src/tasks/index.ts';
import { tempDir } from '../harness.ts';
import { aProject, aTask } from '../store/contract-helpers.ts';

describe('Tasks over the store contract', () => {
  let store: SqliteWorkbenchStore;
  let dir: string;
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const open = () => {
    dir = tempDir('tasks-face');
    store = createSqliteWorkbenchStore(join(dir, 'workbench.db'));
    return new Tasks(store.tasks, buildFlow(defaultStages));
  };

  test('requests racing for a stage session agree on one: it is made once', async () => {
    const tasks = open();
    const task = await aTask(store, (await aProject(store)).id);
    let made = 0;
    const create = async () => {
      made += 1;
      // A real creation awaits the store more than once: the other requests run meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      const session = await store.sessions.create({
        kind: 'plan',
        ownerId: task.id,
        runnerConfigId: 'keel',
        context: { workdir: dir, skillDirs: [] },
      });
      return session.id;
    };
    const ids = await Promise.all([1, 2, 3, 4].map(() => tasks.stageSession(task.id, 'plan', create)));
    expect(made).toBe(1);
    expect(new Set(ids).size).toBe(1);
    expect(await tasks.sessionOf(task.id, 'plan')).toBe(ids[0]);
    // Another stage of the same task is another session.
    expect(await tasks.stageSession(task.id, 'review', create)).not.toBe(ids[0]);
    expect(made).toBe(2);
  });

  test('a creation that fails leaves no session, and the next request makes one', async () => {
    const tasks = open();
    const task = await aTask(store, (await aProject(store)).id);
    const failing = async (): Promise<string> => {
      throw new Error('no model');
    };
    await expect(tasks.stageSession(task.id, 'plan', failing)).rejects.toThrow('no model');
    expect(await tasks.sessionOf(task.id, 'plan')).toBeNull();
    const made = await tasks.stageSession(task.id, 'plan', async () => 'session_after');
    expect(made).toBe('session_after');
  });

  test('read-modify-writes of one task take turns: racing changes of a list lose nothing', async () => {
    const tasks = open();
    const task = await aTask(store, (await aProject(store)).id);
    const names = ['a', 'b', 'c', 'd', 'e'];
    await Promise.all(
      names.map((name) =>
        tasks.change(task.id, (current) => ({
          prd_link_errors: [...(current.prd_link_errors ?? []), { url: name, message: name }],
        })),
      ),
    );
    const after = await tasks.get(task.id);
    expect(after.prd_link_errors?.map((each) => each.url).sort()).toEqual(names);
    // A change that answers nothing writes nothing.
    expect((await tasks.change(task.id, () => undefined)).updated_at).toBe(after.updated_at);
  });

  test('moves go through the table of moves, and every change is told', async () => {
    const tasks = open();
    const told: Task[] = [];
    tasks.onChange = (task) => told.push(task);
    const task = await aTask(store, (await aProject(store)).id);
    await expect(tasks.move(task.id, 'lock_plan')).rejects.toMatchObject({ code: 'INVALID_STATE' });
    expect((await tasks.move(task.id, 'init')).state).toBe('INITIALIZING');
    await tasks.update(task.id, { error: 'x' });
    expect(told.map((each) => [each.state, each.error])).toEqual([
      ['INITIALIZING', null],
      ['INITIALIZING', 'x'],
    ]);
  });
});
