import { describe, expect, test } from 'vitest';
import { type Body, eventually, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';

describe('project knowledge', () => {
  test('a failed layer makes the project FAILED; retrying that layer alone makes it READY', {
    timeout: 60_000,
  }, async () => {
    const root = tempDir('knowledge');
    const repo = repoWithRemote(root, 'shop', { 'index.js': 'export {};\n' });
    await using wb = await startWorkbench([
      {
        when: { lastMessageIncludes: 'Describe the STRUCTURE' },
        text: '# Structure\n\n## Conventions\n\n- Tabs.',
      },
      {
        when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' },
        error: { status: 500, message: 'boom' },
      },
      { when: { lastMessageIncludes: 'Describe the MODULES' }, text: '# Modules' },
      { when: { lastMessageIncludes: 'Write a short INDEX' }, text: '# Index\n\nA shop.' },
      { when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' }, text: '# Flow\n\nPeople buy.' },
    ]);
    const { api } = wb;
    const project = (
      await api('POST', '/api/projects', {
        name: 'Shop',
        repositories: [{ path: repo.dir, type: 'backend' }],
      })
    ).body;
    // No manifest in it: no checks found.
    expect(project.repositories).toEqual([
      { path: repo.dir, type: 'backend', name: 'shop', checks: [], setup: null, preview: null },
    ]);
    await api('POST', `/api/projects/${project.id}/init`);
    const failed = await eventually(async () => {
      const body = (await api('GET', `/api/projects/${project.id}`)).body;
      return body.status === 'FAILED' && body;
    }, 'FAILED');
    expect(failed.error).toContain('shop/business_flow');
    const knowledge = (await api('GET', `/api/projects/${project.id}/knowledge`)).body;
    const flow = knowledge.layers.find((layer: Body) => layer.layer === 'business_flow');
    expect(flow).toMatchObject({ status: 'failed', content: null });
    expect(flow.error).toBeTruthy();
    expect((await api('GET', `/api/sessions/${flow.session_id}/status`)).body.status).toBe('failed');
    expect(knowledge.project_md).toBeNull();

    const retry = await api('POST', `/api/projects/${project.id}/init`, {
      repository: 'shop',
      layer: 'business_flow',
    });
    expect(retry.status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
      'READY',
    );
    const done = (await api('GET', `/api/projects/${project.id}/knowledge`)).body;
    expect(done.layers.map((layer: Body) => layer.status)).toEqual(['done', 'done', 'done', 'done']);
    expect(done.layers.find((layer: Body) => layer.layer === 'business_flow').content).toContain(
      'People buy.',
    );
    expect(done.project_md).toContain('A shop.');
    expect(done.constitution_md).toContain('- Tabs.');
    expect(done.constitution_md).toContain('Languages:');
    const unknown = await api('POST', `/api/projects/${project.id}/init`, {
      repository: 'nope',
      layer: 'index',
    });
    expect(unknown.body.error.code).toBe('REPOSITORY_NOT_FOUND');
  });
  test('deleting a project while its knowledge is generated: 409 naming the sessions to stop; stopped, it deletes', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('knowledge-delete'), 'shop', { 'index.js': 'export {};\n' });
    const never = new Promise<void>(() => {});
    await using wb = await startWorkbench([
      { when: { lastMessageIncludes: 'Describe the' }, text: 'never', until: never, repeat: true },
    ]);
    const { api } = wb;
    const project = (
      await api('POST', '/api/projects', { name: 'shop', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    await eventually(() => wb.model.chatRequests.length > 0, 'a knowledge turn running');
    const refused = await api('DELETE', `/api/projects/${project.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('POST /api/sessions/{id}/stop');
    const sessionIds: string[] = refused.body.error.details.session_ids;
    expect(sessionIds.length).toBeGreaterThan(0);
    // Stopped one by one (each stop answers once its turn ended), the project can go.
    for (const id of sessionIds) {
      const stopped = await api('POST', `/api/sessions/${id}/stop`);
      expect([200, 409]).toContain(stopped.status);
    }
    await eventually(
      async () => (await api('GET', `/api/projects/${project.id}`)).body.status !== 'INITIALIZING',
      'the generation ended',
    );
    expect((await api('DELETE', `/api/projects/${project.id}`)).status).toBe(204);
  });
});
