// long-running: 10,000 requests against the workbench, some starting git work
import { failureSummary, fuzzService } from '@keel/testkit/fuzz';
import { expect, test } from 'vitest';
import { planningScript, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';

test('10,000 generated and hostile requests: no 5xx, every error in the shape, still healthy', {
  timeout: 300_000,
}, async () => {
  // FUZZ_LOG=1 prints the service's log: where a 500 came from.
  await using wb = await startWorkbench(planningScript(1, ['first']), {
    workbench: { logger: process.env.FUZZ_LOG === '1' },
  });
  const root = tempDir('fuzz');
  const repo = repoWithRemote(root, 'app', { 'README.md': '# app\n' });
  const project = await wb.api('POST', '/api/projects', {
    name: 'p',
    repositories: [{ path: repo.dir, type: 'backend' }],
  });
  expect(project.status).toBe(201);
  const task = await wb.api('POST', '/api/tasks', { project_id: project.body.id, description: 'A task' });
  const openapi = (await wb.api('GET', '/docs/json')).body;
  const ids = [project.body.id, task.body.id];

  const report = await fuzzService({
    base: wb.base,
    openapi,
    requests: 10_000,
    seed: 20261123,
    known: { id: ids, project_id: [project.body.id], task_id: [task.body.id], path: [root, repo.dir] },
  });

  console.log(`fuzz workbench: ${report.sent} requests, by status ${JSON.stringify(report.byStatus)}`);
  expect(report.sent).toBeGreaterThanOrEqual(10_000);
  expect(report.failures.length, failureSummary(report)).toBe(0);
  expect((await wb.api('GET', '/health')).status).toBe(200);
});
