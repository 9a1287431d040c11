import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { NewProject, RunStore } from '../../src/store/contract.ts';

/** What a store implementation hands the suite for each test (see StoreUnderTest in contract-suite.ts). */
type Open = () => Promise<{ store: RunStore; reopen: () => Promise<RunStore>; cleanup: () => Promise<void> }>;

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function newProject(overrides: Partial<NewProject> = {}): NewProject {
  return {
    name: 'Keel',
    description: 'The agent runtime',
    workdir: '/work/keel',
    code_paths: ['/work/shared'],
    session_id: 'ses_project',
    ...overrides,
  };
}

/**
 * The store contract's projects and tasks (the web API's records), on a fresh database per test; run by
 * describeStoreContract for every implementation.
 */
export function describeProjectContract(name: string, open: Open): void {
  describe(name, () => {
    let opened: Awaited<ReturnType<Open>>;
    let store: RunStore;
    const handles: RunStore[] = [];

    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });

    afterEach(async () => {
      for (const handle of handles.splice(0)) await handle.close();
      await store.close();
      await opened.cleanup();
    });

    test('a project is created, read back by another process, listed newest first and paged', async () => {
      const first = await store.createProject(newProject());
      expect(first).toEqual({
        id: expect.stringMatching(/^prj_[0-9a-z]{26}$/),
        name: 'Keel',
        description: 'The agent runtime',
        workdir: '/work/keel',
        code_paths: ['/work/shared'],
        session_id: 'ses_project',
        created_at: expect.stringMatching(isoUtc),
        updated_at: expect.stringMatching(isoUtc),
      });
      const second = await store.createProject(newProject({ name: 'Two', code_paths: [], session_id: null }));
      const other = await opened.reopen();
      handles.push(other);
      expect(await other.getProject(first.id)).toEqual(first);
      expect((await other.listProjects()).map((each) => each.id)).toEqual([second.id, first.id]);
      expect(await other.listProjects({ limit: 1 })).toEqual([second]);
      expect(await other.listProjects({ before: second.id })).toEqual([first]);
      await expect(store.getProject('prj_missing')).rejects.toMatchObject({
        code: 'PROJECT_NOT_FOUND',
        message: "Project 'prj_missing' does not exist.",
      });
    });

    test('an update changes only the given fields; unicode and long text survive the round trip', async () => {
      const project = await store.createProject(newProject());
      const text = `日本語 ✓ ${'x'.repeat(20_000)}`;
      const updated = await store.updateProject(project.id, { description: text, code_paths: [] });
      expect(updated).toMatchObject({
        name: 'Keel',
        description: text,
        workdir: '/work/keel',
        code_paths: [],
        created_at: project.created_at,
      });
      expect(updated.updated_at >= project.updated_at).toBe(true);
      expect(await store.updateProject(project.id, {})).toMatchObject({ description: text });
      await expect(store.updateProject('prj_missing', { name: 'x' })).rejects.toMatchObject({
        code: 'PROJECT_NOT_FOUND',
      });
    });

    test('tasks belong to a project: created, listed, updated and deleted; the project takes them along', async () => {
      const project = await store.createProject(newProject());
      const a = await store.createTask({
        project_id: project.id,
        name: 'Fix login',
        branch_name: 'fix/login',
        session_id: 'ses_a',
      });
      expect(a).toEqual({
        id: expect.stringMatching(/^tsk_[0-9a-z]{26}$/),
        project_id: project.id,
        name: 'Fix login',
        branch_name: 'fix/login',
        session_id: 'ses_a',
        created_at: expect.stringMatching(isoUtc),
        updated_at: expect.stringMatching(isoUtc),
      });
      const b = await store.createTask({
        project_id: project.id,
        name: 'B',
        branch_name: 'b',
        session_id: null,
      });
      expect((await store.listTasks(project.id)).map((each) => each.id)).toEqual([b.id, a.id]);
      expect(await store.listTasks(project.id, { before: b.id })).toEqual([a]);
      expect(await store.getTask(a.id)).toEqual(a);
      expect(await store.updateTask(a.id, { branch_name: 'fix/login-2' })).toMatchObject({
        name: 'Fix login',
        branch_name: 'fix/login-2',
      });

      const empty = await store.createProject(newProject({ name: 'Empty' }));
      expect(await store.listTasks(empty.id)).toEqual([]);
      await expect(store.listTasks('prj_missing')).rejects.toMatchObject({ code: 'PROJECT_NOT_FOUND' });
      await expect(
        store.createTask({ project_id: 'prj_missing', name: 'x', branch_name: 'x', session_id: null }),
      ).rejects.toMatchObject({ code: 'PROJECT_NOT_FOUND' });

      await store.deleteTask(b.id);
      await expect(store.getTask(b.id)).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
      await expect(store.deleteTask(b.id)).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
      await expect(store.updateTask(b.id, { name: 'x' })).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });

      await store.deleteProject(project.id);
      await expect(store.getProject(project.id)).rejects.toMatchObject({ code: 'PROJECT_NOT_FOUND' });
      await expect(store.getTask(a.id)).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
      await expect(store.deleteProject(project.id)).rejects.toMatchObject({ code: 'PROJECT_NOT_FOUND' });
      expect((await store.listProjects()).map((each) => each.id)).toEqual([empty.id]);
    });
  });
}
