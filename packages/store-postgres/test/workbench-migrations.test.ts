import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { createPostgresStore } from '../src/index.ts';
import { createPostgresWorkbenchStore } from '../src/workbench/index.ts';
import { workbenchVersions } from '../src/workbench/migrations.ts';
import { dropSchema, pgUrl, randomSchema } from './pg-test-store.ts';

// The workbench's tables: made once however many processes open the store, and shared by them.

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!pgUrl)('the PostgreSQL workbench store migrations', () => {
  test('opening again is a no-op; a second process sees the first one’s records', async () => {
    const schema = randomSchema();
    const first = await createPostgresWorkbenchStore({ url: pgUrl!, schema });
    try {
      const project = await first.projects.create({
        name: 'p',
        description: '',
        repositories: [],
        default_runner: null,
      });
      await first.settings.write({ model: 'm' } as never);
      const applied = () =>
        query<{ version: number; applied_at: Date }>(
          `SELECT version, applied_at FROM "${schema}".workbench_migrations ORDER BY version`,
        );
      const before = await applied();
      expect(before.map((row) => row.version)).toEqual(workbenchVersions);

      const second = await createPostgresWorkbenchStore({ url: pgUrl!, schema });
      try {
        expect(await applied()).toEqual(before);
        expect(await second.projects.get(project.id)).toEqual(project);
        expect(await second.settings.read()).toEqual({ model: 'm' });
        await second.projects.update(project.id, { status: 'READY' });
        expect((await first.projects.get(project.id)).status).toBe('READY');
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
      await dropSchema(pgUrl!, schema);
    }
  });

  test('processes opening at once, the run store among them, share one schema without a collision', async () => {
    const schema = randomSchema();
    const opened = await Promise.all([
      createPostgresWorkbenchStore({ url: pgUrl!, schema }),
      createPostgresWorkbenchStore({ url: pgUrl!, schema }),
      createPostgresStore({ url: pgUrl!, schema }),
      createPostgresWorkbenchStore({ url: pgUrl!, schema }),
    ]);
    try {
      const tables = await query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'workbench_%'
         ORDER BY table_name`,
        [schema],
      );
      expect(tables.map((row) => row.table_name)).toEqual([
        'workbench_conversations',
        'workbench_knowledge',
        'workbench_migrations',
        'workbench_plan_versions',
        'workbench_projects',
        'workbench_sessions',
        'workbench_settings',
        'workbench_skill_links',
        'workbench_skills',
        'workbench_task_sessions',
        'workbench_tasks',
        'workbench_todos',
      ]);
      // The run store's own `projects` table stands beside the workbench's.
      const runStoreProjects = await query(`SELECT count(*) FROM "${schema}".projects`);
      expect(runStoreProjects).toHaveLength(1);
    } finally {
      await Promise.all(opened.map((store) => store.close()));
      await dropSchema(pgUrl!, schema);
    }
  });
});
