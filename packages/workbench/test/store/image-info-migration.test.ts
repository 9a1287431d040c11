// A database written before tasks kept `image_info` (issue #28) is upgraded in place: the migration fills
// it from the images, as the service writes it for new tasks, so older tasks list with their sizes.
import { join } from 'node:path';
import { openSqlite } from '@keel/runtime/store';
import { describe, expect, test } from 'vitest';
import { migrations, openDatabase, SqliteWorkbenchStore } from '../../src/store/index.ts';
import { tempDir } from '../harness.ts';

describe('the image_info migration', () => {
  test('fills image_info of older tasks from their images', async () => {
    const path = join(tempDir('migrate'), 'workbench.db');
    // The schema as it stood before the migration, with a task holding two images.
    const before = migrations.findIndex((sql) => sql.includes('image_info'));
    const old = openSqlite(path, migrations.slice(0, before));
    old
      .prepare(
        "INSERT INTO projects (id, name, description, repositories, status, created_at, updated_at) VALUES ('p', 'p', '', '[]', 'READY', 'x', 'x')",
      )
      .run();
    old
      .prepare(
        `INSERT INTO tasks (id, project_id, description, prd_links, images, runner, branch, state, init, workspaces, created_at, updated_at)
         VALUES ('t', 'p', 'd', '[]', ?, NULL, 'b', 'CREATED', '{}', '[]', 'x', 'x')`,
      )
      .run(
        JSON.stringify([
          { data: 'iVBORw0KGgo=', media_type: 'image/png', filename: 'a.png' },
          { data: 'AAAAAA==', media_type: 'image/jpeg' },
        ]),
      );
    old.close();

    const store = new SqliteWorkbenchStore(openDatabase(path));
    try {
      const [task] = await store.tasks.list();
      expect(task?.images).toEqual([
        { media_type: 'image/png', filename: 'a.png', bytes: 8 },
        { media_type: 'image/jpeg', bytes: 4 },
      ]);
    } finally {
      await store.close();
    }
  });
});
