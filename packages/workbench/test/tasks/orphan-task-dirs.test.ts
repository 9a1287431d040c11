// Issue #28: a task delete removes the row, then the directory; a service stopped in between leaves a
// directory no task owns. The next start removes it in the background, and nothing else.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { eventually, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';

test('at start-up, task directories without a task are removed; a task directory and other names stay', {
  timeout: 60_000,
}, async () => {
  const home = tempDir('orphans');
  const orphan = join(home, 'tasks', 'task_01orphan');
  mkdirSync(join(orphan, 'app', 'src'), { recursive: true });
  writeFileSync(join(orphan, 'app', 'src', 'a.txt'), 'left over\n');
  const other = join(home, 'tasks', 'notes');
  mkdirSync(other, { recursive: true });

  // A real task's directory, from a first run of the service on the same home.
  const repo = repoWithRemote(tempDir('orphans-repo'), 'app', { 'a.txt': 'a\n' });
  let kept = '';
  {
    await using wb = await startWorkbench([], { env: { WORKBENCH_HOME: home } });
    const project = (
      await wb.api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    const task = (await wb.api('POST', '/api/tasks', { project_id: project.id, description: 'Keep me' }))
      .body;
    kept = join(home, 'tasks', task.id);
    mkdirSync(kept, { recursive: true });
    await eventually(() => !existsSync(orphan), 'the orphan removed');
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
