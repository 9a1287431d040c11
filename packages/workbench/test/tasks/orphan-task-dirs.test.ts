// Issue #28: a task delete takes the directory away at once (into the trash) and removes its files in a
// child process; a service stopped in between leaves a directory no task owns, or files in the trash. The
// next start removes them in the background, and nothing else.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { eventually, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';

test('a delete empties the task directory in the background; a start removes what a stop left behind', {
  timeout: 60_000,
}, async () => {
  const home = tempDir('orphans');
  const orphan = join(home, 'tasks', 'task_01orphan');
  mkdirSync(join(orphan, 'app', 'src'), { recursive: true });
  writeFileSync(join(orphan, 'app', 'src', 'a.txt'), 'left over\n');
  const other = join(home, 'tasks', 'notes');
  mkdirSync(other, { recursive: true });
  // A delete's files a stop left in the trash.
  const trashed = join(home, 'trash', 'task_01gone-1a2b3c4d');
  mkdirSync(join(trashed, 'app'), { recursive: true });
  writeFileSync(join(trashed, 'app', 'b.txt'), 'b\n');

  const repo = repoWithRemote(tempDir('orphans-repo'), 'app', { 'a.txt': 'a\n' });
  let kept = '';
  {
    await using wb = await startWorkbench([], { env: { WORKBENCH_HOME: home } });
    await eventually(() => !existsSync(orphan) && !existsSync(trashed), 'the orphan and the trash removed');
    const project = (
      await wb.api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    const create = async (description: string) =>
      (await wb.api('POST', '/api/tasks', { project_id: project.id, description })).body;
    const deleted = await create('Delete me');
    const gone = join(home, 'tasks', deleted.id);
    mkdirSync(join(gone, 'app'), { recursive: true });
    writeFileSync(join(gone, 'app', 'c.txt'), 'c\n');
    const keep = await create('Keep me');
    kept = join(home, 'tasks', keep.id);
    mkdirSync(kept, { recursive: true });

    // A delete takes the task's directory away at once; its files go in the background.
    expect((await wb.api('DELETE', `/api/tasks/${deleted.id}`)).status).toBe(204);
    expect(existsSync(gone)).toBe(false);
    await eventually(async () => (await readdir(join(home, 'trash'))).length === 0, 'the trash emptied');
  }
  // Started again over a task's directory and a new orphan: only the orphan goes.
  const second = join(home, 'tasks', 'task_02orphan');
  mkdirSync(second, { recursive: true });
  {
    await using _again = await startWorkbench([], { env: { WORKBENCH_HOME: home } });
    await eventually(() => !existsSync(second), 'the second orphan removed');
  }
  expect(existsSync(kept)).toBe(true);
  expect(existsSync(other)).toBe(true);
});
