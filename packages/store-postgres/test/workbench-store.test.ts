import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { describeWorkbenchStoreContract } from '../../workbench/test/store/contract-suite.ts';
import { createPostgresWorkbenchStore } from '../src/workbench/index.ts';
import { dropSchema, pgUrl, randomSchema } from './pg-test-store.ts';

// The workbench's store contract on PostgreSQL, each test on a fresh schema; then what PostgreSQL could
// answer differently from SQLite (JSON key order, timestamps, ties, collation, unknown parents).

async function openOnFreshSchema() {
  const schema = randomSchema();
  const store = await createPostgresWorkbenchStore({ url: pgUrl!, schema });
  return { store, schema, cleanup: () => dropSchema(pgUrl!, schema) };
}

describeWorkbenchStoreContract('the PostgreSQL workbench store', openOnFreshSchema, { skip: !pgUrl });

async function withStore(body: (opened: Awaited<ReturnType<typeof openOnFreshSchema>>) => Promise<void>) {
  const opened = await openOnFreshSchema();
  try {
    await body(opened);
  } finally {
    await opened.store.close();
    await opened.cleanup();
  }
}

const project = { name: 'p', description: 'd', repositories: [], default_runner: null };
const aTask = { description: 'd', prd_links: [], images: [], runner: null, branch: 'b' };

describe.skipIf(!pgUrl)('the PostgreSQL workbench store, as SQLite answers', () => {
  test('JSON comes back as written, key order included (jsonb would sort the keys)', () =>
    withStore(async ({ store }) => {
      const settings = { zeta: 1, alpha: { b: [1, { y: 2, x: 1 }], a: null }, model: 'm' };
      await store.settings.write(settings as never);
      expect(JSON.stringify(await store.settings.read())).toBe(JSON.stringify(settings));
      const context = { workdir: '/w', skillDirs: ['/s'], zz: 1, aa: 2 };
      const session = await store.sessions.create({
        kind: 'plan',
        ownerId: null,
        runnerConfigId: 'k',
        context: context as never,
      });
      expect(JSON.stringify((await store.sessions.get(session.id)).context)).toBe(JSON.stringify(context));
    }));

  test('timestamps are ISO 8601 UTC strings to the millisecond, written ones read back unchanged', () =>
    withStore(async ({ store }) => {
      const created = await store.projects.create(project);
      expect(created.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(created.updated_at).toBe(created.created_at);
      const session = await store.sessions.create({
        kind: 'plan',
        ownerId: null,
        runnerConfigId: 'k',
        context: { workdir: '/w', skillDirs: [] },
      });
      const ended = await store.sessions.update(session.id, { ended_at: '2020-02-29T23:59:59.123Z' });
      expect(ended.ended_at).toBe('2020-02-29T23:59:59.123Z');
    }));

  test('ties on created_at list by id, byte by byte whatever the locale; skills by name the same way', () =>
    withStore(async ({ store, schema }) => {
      const { id: projectId } = await store.projects.create(project);
      const ids = ['task_b', 'task_B', 'task_a_', 'task_a'];
      for (const id of ids) await store.tasks.create({ ...aTask, id, project_id: projectId });
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      try {
        await client.query(`UPDATE "${schema}".workbench_tasks SET created_at = '2020-01-01T00:00:00Z'`);
      } finally {
        await client.end();
      }
      expect((await store.tasks.list()).map((each) => each.id)).toEqual([
        'task_B',
        'task_a',
        'task_a_',
        'task_b',
      ]);
      for (const name of ['b', 'B', 'a_', 'a', 'A']) await store.skills.create({ name, description: '' });
      expect((await store.skills.list()).map((skill) => skill.name)).toEqual(['A', 'B', 'a', 'a_', 'b']);
    }));

  test('a row naming a missing project or task is its NOT_FOUND, not a database error', () =>
    withStore(async ({ store }) => {
      await expect(
        store.tasks.create({ ...aTask, id: 'task_x', project_id: 'prj_none' }),
      ).rejects.toMatchObject({ code: 'PROJECT_NOT_FOUND' });
      await expect(store.conversations.create({ title: 't', project_id: 'prj_none' })).rejects.toMatchObject({
        code: 'PROJECT_NOT_FOUND',
      });
      const skill = await store.skills.create({ name: 's', description: '' });
      await expect(store.skills.link(skill.id, 'prj_none', true)).rejects.toMatchObject({
        code: 'PROJECT_NOT_FOUND',
      });
      const real = await store.projects.create(project);
      await expect(store.skills.link('skill_none', real.id, true)).rejects.toMatchObject({
        code: 'SKILL_NOT_FOUND',
      });
      await expect(store.tasks.setSession('task_none', 'plan', 'wses_1')).rejects.toMatchObject({
        code: 'TASK_NOT_FOUND',
      });
      await expect(store.tasks.addPlanVersion('task_none', '#', 'ai', null)).rejects.toMatchObject({
        code: 'TASK_NOT_FOUND',
      });
    }));

  test('a NUL character: a key with one names no record; a value with one is refused, never a 500', () =>
    withStore(async ({ store }) => {
      const bad = 'x\u0000y';
      await expect(store.skills.get(bad)).rejects.toMatchObject({
        code: 'SKILL_NOT_FOUND',
        details: { skill_id: bad },
      });
      await expect(store.conversations.update(bad, { title: 't' })).rejects.toMatchObject({
        code: 'CONVERSATION_NOT_FOUND',
      });
      await expect(store.tasks.move(bad, () => 'DONE')).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
      expect(await store.tasks.exists(bad)).toBe(false);
      expect(await store.sessions.find(bad)).toBeUndefined();
      await store.tasks.remove(bad);
      const { id } = await store.projects.create(project);
      await expect(store.projects.update(id, { description: bad })).rejects.toMatchObject({
        code: 'INVALID_PARAMS',
      });
      // JSON keeps it escaped (\u0000), which the json type holds.
      await store.projects.update(id, { repositories: [{ path: bad, type: 'custom', name: bad }] });
      expect((await store.projects.get(id)).repositories[0]?.path).toBe(bad);
      const task = await store.tasks.create({ ...aTask, id: 'task_v', project_id: id });
      await expect(store.tasks.planVersion(task.id, 2 ** 40)).rejects.toMatchObject({
        code: 'PLAN_VERSION_NOT_FOUND',
        details: { task_id: task.id, version: 2 ** 40 },
      });
    }));

  test('a failing database is a STORE_ERROR; a bad schema name is refused before connecting', async () => {
    const opened = await openOnFreshSchema();
    try {
      await opened.cleanup();
      const failure = await opened.store.projects.list().catch((error) => error);
      expect(failure).toMatchObject({ code: 'STORE_ERROR', details: { pg_code: '42P01' } });
    } finally {
      await opened.store.close();
    }
    await expect(createPostgresWorkbenchStore({ url: pgUrl!, schema: 'Bad-Name' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
    });
    const url = new URL(pgUrl!);
    url.password = 'secret';
    url.port = '1';
    const failure = await createPostgresWorkbenchStore({ url: url.toString() }).catch((error) => error);
    expect(failure).toMatchObject({ code: 'STORE_ERROR' });
    expect(failure.message).not.toContain('secret');
  });
});
