import { describe, expect, test } from 'vitest';
import { repoWithRemote, startWorkbench, tempDir } from '../../workbench/test/harness.ts';
import { createPostgresWorkbenchStore } from '../src/workbench/index.ts';
import { dropSchema, pgUrl, randomSchema } from './pg-test-store.ts';

// The workbench service on the PostgreSQL store (createWorkbench({ store })): its routes keep their records
// there, and a second workbench on the same schema (another process, another home) reads them.

describe.skipIf(!pgUrl)('the workbench on PostgreSQL', () => {
  test('settings, a project, a skill link and a conversation written by one workbench are read by another', async () => {
    const schema = randomSchema();
    const repo = repoWithRemote(tempDir('pg-workbench'), 'app', { 'a.txt': 'a\n' });
    try {
      let projectId: string;
      {
        const store = await createPostgresWorkbenchStore({ url: pgUrl!, schema });
        await using wb = await startWorkbench([], { workbench: { store } });
        const { api } = wb;
        expect((await store.settings.read()).model).toBe('mock-model');
        const project = await api('POST', '/api/projects', {
          name: 'p',
          repositories: [{ path: repo.dir, type: 'custom' }],
        });
        expect(project.status).toBe(201);
        projectId = project.body.id;
        const skill = await api('POST', '/api/skills', { name: 'review', description: 'd', content: '# R' });
        await api('POST', `/api/skills/${skill.body.id}/link`, { project_id: projectId, linked: true });
        const conversation = await api('POST', '/api/conversations', { title: 'Q', project_id: projectId });
        expect(conversation.status).toBe(201);
        expect((await api('GET', `/api/conversations/${conversation.body.id}`)).body.title).toBe('Q');
        expect((await api('GET', '/api/projects/prj_none')).body.error).toMatchObject({
          code: 'PROJECT_NOT_FOUND',
          message: "No project 'prj_none'.",
        });
      }
      const store = await createPostgresWorkbenchStore({ url: pgUrl!, schema });
      await using other = await startWorkbench([], { workbench: { store }, configure: false });
      expect((await other.api('GET', '/api/settings')).body).toMatchObject({ model: 'mock-model' });
      expect(
        (await other.api('GET', '/api/projects')).body.projects.map((each: { id: string }) => each.id),
      ).toEqual([projectId]);
      expect((await other.api('GET', `/api/skills?project_id=${projectId}`)).body.skills).toHaveLength(1);
      expect((await other.api('GET', '/api/conversations')).body.conversations).toMatchObject([
        { title: 'Q', project_id: projectId },
      ]);
    } finally {
      await dropSchema(pgUrl!, schema);
    }
  });
});
