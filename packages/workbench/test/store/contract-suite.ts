import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { defaultSettings } from '../../src/settings/schema.ts';
import type { WorkbenchStore } from '../../src/store/index.ts';
import { describeConcurrencyContract } from './concurrency-contract.ts';
import { aProject, aTask, isoUtc, rejection, type WorkbenchStoreUnderTest } from './contract-helpers.ts';
import { describeTaskContract } from './task-contract.ts';

export type { WorkbenchStoreUnderTest } from './contract-helpers.ts';

/**
 * The WorkbenchStore contract (src/store/contract.ts) as tests: every dialect registers it with its own
 * `open`, on a fresh database per test (test/store/sqlite-store.test.ts for SQLite). `skip` reports them
 * skipped, for a dialect whose database is not there (PostgreSQL without KEEL_TEST_PG_URL).
 */
export function describeWorkbenchStoreContract(
  name: string,
  open: () => Promise<WorkbenchStoreUnderTest>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(name, () => {
    let opened: WorkbenchStoreUnderTest;
    let store: WorkbenchStore;

    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });

    afterEach(async () => {
      await store.close();
      await opened.cleanup();
    });

    test('projects: created CREATED, read back, listed oldest first, updated field by field', async () => {
      const first = await aProject(store, 'one');
      const second = await aProject(store, 'two');
      expect(first).toMatchObject({
        name: 'one',
        status: 'CREATED',
        error: null,
        trust_repository_config: false,
        repair_turns: 2,
        review_runner: null,
      });
      expect(first.id).toMatch(/^prj_/);
      expect(first.created_at).toMatch(isoUtc);
      expect(await store.projects.get(first.id)).toEqual(first);
      expect((await store.projects.list()).map((project) => project.id)).toEqual([first.id, second.id]);

      const updated = await store.projects.update(first.id, {
        status: 'READY',
        trust_repository_config: true,
        repositories: [{ path: '/elsewhere', type: 'custom', name: 'x' }],
      });
      expect(updated).toMatchObject({ name: 'one', status: 'READY', trust_repository_config: true });
      expect(updated.repositories).toEqual([{ path: '/elsewhere', type: 'custom', name: 'x' }]);
      expect(await store.projects.get(first.id)).toEqual(updated);
    });

    test('projects: an unknown id is PROJECT_NOT_FOUND', async () => {
      const error = await rejection(store.projects.get('prj_none'), 'PROJECT_NOT_FOUND');
      expect(error.message).toBe("No project 'prj_none'.");
      expect(error.details).toEqual({ project_id: 'prj_none' });
      await rejection(store.projects.update('prj_none', { name: 'x' }), 'PROJECT_NOT_FOUND');
    });

    test('knowledge: a layer is made pending, then patched; listed by repository and layer; cleared', async () => {
      const project = await aProject(store);
      await store.projects.setKnowledge(project.id, 'b', 'structure', {});
      await store.projects.setKnowledge(project.id, 'a', 'modules', {
        status: 'running',
        session_id: 'wses_1',
      });
      await store.projects.setKnowledge(project.id, 'a', 'index', { status: 'failed', error: 'no' });
      const layers = await store.projects.knowledge(project.id);
      expect(layers.map((layer) => [layer.repository, layer.layer, layer.status])).toEqual([
        ['a', 'index', 'failed'],
        ['a', 'modules', 'running'],
        ['b', 'structure', 'pending'],
      ]);
      expect(layers[1]).toMatchObject({ session_id: 'wses_1', error: null });
      await store.projects.clearKnowledge(project.id);
      expect(await store.projects.knowledge(project.id)).toEqual([]);
    });

    test('projects: crash repair fails running layers and INITIALIZING projects', async () => {
      const project = await aProject(store);
      await store.projects.update(project.id, { status: 'INITIALIZING' });
      await store.projects.setKnowledge(project.id, 'a', 'structure', { status: 'running' });
      await store.projects.setKnowledge(project.id, 'a', 'index', { status: 'done' });
      await store.projects.failInterrupted();
      expect(await store.projects.get(project.id)).toMatchObject({
        status: 'FAILED',
        error: 'knowledge generation was interrupted',
      });
      const layers = await store.projects.knowledge(project.id);
      expect(layers.map((layer) => layer.status)).toEqual(['done', 'failed']);
    });

    test("projects: delete takes the project's knowledge, tasks, skill links; conversations stay", async () => {
      const project = await aProject(store);
      const kept = await aProject(store, 'kept');
      const task = await aTask(store, project.id);
      await store.tasks.setSession(task.id, 'plan', 'wses_plan');
      await store.projects.setKnowledge(project.id, 'a', 'structure', {});
      const skill = await store.skills.create({ name: 'lint', description: 'd' });
      await store.skills.link(skill.id, project.id, true);
      await store.skills.link(skill.id, kept.id, true);
      const conversation = await store.conversations.create({ title: 't', project_id: project.id });
      expect(await store.projects.projectOfTask(task.id)).toBe(project.id);

      await store.projects.remove(project.id);
      await rejection(store.projects.get(project.id), 'PROJECT_NOT_FOUND');
      expect(await store.tasks.exists(task.id)).toBe(false);
      expect(await store.tasks.sessionOf(task.id, 'plan')).toBeNull();
      expect(await store.projects.projectOfTask(task.id)).toBeUndefined();
      expect(await store.projects.knowledge(project.id)).toEqual([]);
      expect((await store.skills.get(skill.id)).project_ids).toEqual([kept.id]);
      expect(await store.conversations.get(conversation.id)).toMatchObject({ project_id: null });
    });

    test('sessions: created queued, found, updated (JSON fields too), and selected', async () => {
      const context = { workdir: '/w', skillDirs: [] };
      const session = await store.sessions.create({
        kind: 'plan',
        ownerId: 'task_1',
        runnerConfigId: 'keel',
        context,
      });
      expect(session).toMatchObject({
        kind: 'plan',
        owner_id: 'task_1',
        status: 'queued',
        last_seq: 0,
        context,
      });
      expect(session.id).toMatch(/^wses_/);
      expect(await store.sessions.find(session.id)).toEqual(session);
      expect(await store.sessions.find('wses_none')).toBeUndefined();
      const error = await rejection(store.sessions.get('wses_none'), 'SESSION_NOT_FOUND');
      expect(error.details).toEqual({ session_id: 'wses_none' });

      const ended = await store.sessions.update(session.id, {
        status: 'failed',
        error: { code: 'X', message: 'broke' },
        ended_at: '2020-01-01T00:00:00.000Z',
        last_seq: 7,
      });
      expect(ended).toMatchObject({ status: 'failed', error: { code: 'X', message: 'broke' }, last_seq: 7 });
      const other = await store.sessions.create({
        kind: 'coding',
        ownerId: 'task_1',
        runnerConfigId: 'k',
        context,
      });
      expect((await store.sessions.byStatus('queued')).map((each) => each.id)).toEqual([other.id]);
      expect((await store.sessions.endedBefore('2021-01-01T00:00:00.000Z')).map((each) => each.id)).toEqual([
        session.id,
      ]);
      expect(await store.sessions.endedBefore('2019-01-01T00:00:00.000Z')).toEqual([]);
      expect((await store.sessions.byOwner('task_1')).map((each) => each.id)).toEqual([session.id, other.id]);
    });

    test('settings: empty until written; written whole', async () => {
      expect(await store.settings.read()).toEqual({});
      const first = { ...defaultSettings, model: 'm1' };
      await store.settings.write(first);
      expect(await store.settings.read()).toEqual(first);
      await store.settings.write({ ...first, model: 'm2' });
      expect(await store.settings.read()).toMatchObject({ model: 'm2' });
    });

    test('skills: by name, unique, linked to projects, updated and removed', async () => {
      const project = await aProject(store);
      const zed = await store.skills.create({ name: 'zed', description: 'z' });
      const alpha = await store.skills.create({ name: 'alpha', description: 'a' });
      expect(alpha).toMatchObject({ name: 'alpha', description: 'a', project_ids: [] });
      expect((await store.skills.list()).map((skill) => skill.name)).toEqual(['alpha', 'zed']);
      expect(await store.skills.findByName('zed')).toEqual(zed);
      expect(await store.skills.findByName('none')).toBeUndefined();
      await rejection(store.skills.create({ name: 'zed', description: 'again' }), 'SKILL_EXISTS');

      await store.skills.link(zed.id, project.id, true);
      await store.skills.link(zed.id, project.id, true);
      expect((await store.skills.get(zed.id)).project_ids).toEqual([project.id]);
      expect((await store.skills.list(project.id)).map((skill) => skill.name)).toEqual(['zed']);
      await store.skills.link(zed.id, project.id, false);
      expect(await store.skills.list(project.id)).toEqual([]);

      expect(await store.skills.update(alpha.id, { description: 'new' })).toMatchObject({
        description: 'new',
      });
      await store.skills.remove(alpha.id);
      const error = await rejection(store.skills.get(alpha.id), 'SKILL_NOT_FOUND');
      expect(error.details).toEqual({ skill_id: alpha.id });
      await rejection(store.skills.remove(alpha.id), 'SKILL_NOT_FOUND');
      await rejection(store.skills.update(alpha.id, { description: 'x' }), 'SKILL_NOT_FOUND');
    });

    test('conversations: oldest first, by project, updated, removed', async () => {
      const project = await aProject(store);
      const free = await store.conversations.create({ title: 'free', project_id: null });
      const about = await store.conversations.create({ title: 'about', project_id: project.id });
      expect(about).toMatchObject({ title: 'about', project_id: project.id, session_id: null });
      expect(about.id).toMatch(/^conv_/);
      expect((await store.conversations.list()).map((each) => each.id)).toEqual([free.id, about.id]);
      expect((await store.conversations.list(project.id)).map((each) => each.id)).toEqual([about.id]);
      const renamed = await store.conversations.update(free.id, { title: 'renamed', session_id: 'wses_1' });
      expect(renamed).toMatchObject({ title: 'renamed', session_id: 'wses_1' });
      expect(await store.conversations.get(free.id)).toEqual(renamed);
      await store.conversations.remove(free.id);
      const error = await rejection(store.conversations.get(free.id), 'CONVERSATION_NOT_FOUND');
      expect(error.details).toEqual({ conversation_id: free.id });
      await rejection(store.conversations.update(free.id, { title: 'x' }), 'CONVERSATION_NOT_FOUND');
    });

    describeTaskContract(() => store);
    describeConcurrencyContract(() => store);
  });
}
