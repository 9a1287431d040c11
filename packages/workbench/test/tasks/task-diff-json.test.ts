// GET /api/tasks/{id}/diff is checked and serialised in the worker thread and sent as text (issue #44): its
// bytes are what the route's schema check and serialiser write (TaskDiff, in its key order), for two
// repositories with a rename, a deletion, a binary file and an untracked file.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { taskDiff } from '@keel/protocol/workbench';
import { describe, expect, test } from 'vitest';
import { planningScript, repoWithRemote, startWorkbench, taskInCoding, tempDir } from '../harness.ts';

describe('the task diff as JSON text', () => {
  test('the same bytes and content type as the schema-checked serialiser writes', {
    timeout: 60_000,
  }, async () => {
    const root = tempDir('task-diff-json');
    const app = repoWithRemote(root, 'app', {
      'a.txt': 'a\n',
      'old.txt': 'old name\n',
      'gone.txt': 'gone\n',
    });
    const web = repoWithRemote(root, 'web', { 'index.html': '<p>hi</p>\n' });
    await using wb = await startWorkbench(planningScript(2, ['one']));
    const task = await taskInCoding(wb.api, [
      { path: app.dir, type: 'backend' },
      { path: web.dir, type: 'frontend' },
    ]);
    const appDir = join(task.work_dir, 'app');
    writeFileSync(join(appDir, 'a.txt'), 'a\nb "quoted" \\ ünïcode\n');
    renameSync(join(appDir, 'old.txt'), join(appDir, 'new.txt'));
    rmSync(join(appDir, 'gone.txt'));
    writeFileSync(join(appDir, 'blob.bin'), Buffer.from([0, 1, 2, 0, 255]));
    writeFileSync(join(task.work_dir, 'web', 'new-page.html'), '<p>new</p>\n');

    const response = await fetch(`${wb.base}/api/tasks/${task.id}/diff`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(text).toBe(JSON.stringify(taskDiff.parse(JSON.parse(text))));
    const body = JSON.parse(text);
    expect(body.repositories.map((each: { repository: string }) => each.repository)).toEqual(['app', 'web']);
    expect(body.additions).toBe(
      body.repositories.reduce((sum: number, each: { additions: number }) => sum + each.additions, 0),
    );
    expect(body.repositories[0].files.length).toBeGreaterThanOrEqual(4);
  });
});
