// Issue #44: the workbench starts its off-loop worker (scans, git) as it starts, not at a project's first
// scan: a create → READY on a fresh service then waits for neither the thread's start nor its modules.
import { describe, expect, test } from 'vitest';
import { closeOffLoop, offLoopThreadId } from '../../src/off-loop/index.ts';
import { eventually, knowledgeScript, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';

describe('the off-loop worker at service start', () => {
  test('runs once the service started, before any project; a project create and its scan keep it', {
    timeout: 60_000,
  }, async () => {
    // Nothing of an earlier test in this process: no worker until the service starts one.
    await closeOffLoop();
    expect(offLoopThreadId()).toBeUndefined();
    const repo = repoWithRemote(tempDir('prewarmed'), 'shop', { 'src/index.js': 'export {};\n' });
    await using wb = await startWorkbench(knowledgeScript(1));
    const started = offLoopThreadId();
    expect(started).toBeDefined();

    const project = (
      await wb.api('POST', '/api/projects', {
        name: 'shop',
        repositories: [{ path: repo.dir, type: 'custom' }],
      })
    ).body;
    await eventually(
      async () => (await wb.api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
      'READY',
    );
    // The git checks and the scan ran in that worker: no other one was started for them.
    expect(offLoopThreadId()).toBe(started);
    const knowledge = (await wb.api('GET', `/api/projects/${project.id}/knowledge`)).body;
    expect(knowledge.constitution_md).toContain('Languages:');
  });
});
