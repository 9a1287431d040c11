import { describe, expect, test } from 'vitest';
import {
  type Body,
  eventually,
  knowledgeScript,
  repoWithRemote,
  startWorkbench,
  tempDir,
} from '../harness.ts';

describe('runner resolution: task, then project, then global', () => {
  test('the project default beats the global one; an agent missing here fails the session with its reason', async () => {
    const repo = repoWithRemote(tempDir('resolve'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench(knowledgeScript(1));
    const { api } = wb;
    await api('PUT', '/api/settings', {
      // A Codex whose program is not there: every layer's session fails, naming why.
      runner_configs: [{ id: 'cli', name: 'A CLI agent', kind: 'codex', binary_path: '/nonexistent/codex' }],
      default_runner: 'cli',
    });
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    await api('POST', `/api/projects/${project.id}/init`);
    await eventually(
      async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'FAILED',
      'FAILED',
    );
    const layer = (await api('GET', `/api/projects/${project.id}/knowledge`)).body.layers[0];
    const session = (await api('GET', `/api/sessions/${layer.session_id}/status`)).body;
    expect(session).toMatchObject({
      runner_config_id: 'cli',
      status: 'failed',
      error: { code: 'RUNNER_BINARY_NOT_FOUND' },
    });

    expect((await api('PUT', `/api/projects/${project.id}`, { default_runner: 'keel' })).status).toBe(200);
    await api('POST', `/api/projects/${project.id}/init`);
    await eventually(
      async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
      'READY',
    );
    const layers = (await api('GET', `/api/projects/${project.id}/knowledge`)).body.layers as Body[];
    const used = await Promise.all(
      layers.map(async (each) => (await api('GET', `/api/sessions/${each.session_id}/status`)).body),
    );
    expect(used.map((each) => [each.runner_config_id, each.runner])).toEqual(Array(4).fill(['keel', 'keel']));

    const task = await api('POST', '/api/tasks', {
      project_id: project.id,
      description: 'x',
      runner: 'nope',
    });
    expect(task.status).toBe(422);
    expect(task.body.error).toMatchObject({ code: 'UNKNOWN_RUNNER', details: { field: 'runner' } });
  });
});
