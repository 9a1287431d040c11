import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoWithRemote, startWorkbench, tempDir } from '../harness.ts';

describe('skills and conversations', () => {
  test('skill CRUD writes SKILL.md with front matter; links filter by project', async () => {
    const repo = repoWithRemote(tempDir('skills'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench();
    const { api } = wb;
    const created = await api('POST', '/api/skills', {
      name: 'code-review',
      description: 'Review: "carefully"',
      content: '# Review\n\nRead it all.',
    });
    expect(created.status).toBe(201);
    const file = readFileSync(join(wb.home, 'skills', 'code-review', 'SKILL.md'), 'utf8');
    expect(file).toBe(
      '---\nname: code-review\ndescription: "Review: \\"carefully\\""\n---\n\n# Review\n\nRead it all.\n',
    );
    const updated = await api('PUT', `/api/skills/${created.body.id}`, { content: 'New body.' });
    expect(updated.body).toMatchObject({
      name: 'code-review',
      description: 'Review: "carefully"',
      content: 'New body.',
    });
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    await api('POST', `/api/skills/${created.body.id}/link`, { project_id: project.id, linked: true });
    expect((await api('GET', `/api/skills?project_id=${project.id}`)).body.skills).toHaveLength(1);
    await api('POST', `/api/skills/${created.body.id}/link`, { project_id: project.id, linked: false });
    expect((await api('GET', `/api/skills?project_id=${project.id}`)).body.skills).toHaveLength(0);
    expect((await api('DELETE', `/api/skills/${created.body.id}`)).status).toBe(204);
    expect((await api('GET', `/api/skills/${created.body.id}`)).status).toBe(404);
  });

  test('conversation CRUD; init opens a session with the project knowledge as context', async () => {
    await using wb = await startWorkbench();
    const { api } = wb;
    const created = (await api('POST', '/api/conversations', { title: 'Questions' })).body;
    expect(created).toMatchObject({ title: 'Questions', project_id: null, session_id: null });
    expect((await api('PUT', `/api/conversations/${created.id}`, { title: 'Renamed' })).body.title).toBe(
      'Renamed',
    );
    const init = (await api('POST', `/api/conversations/${created.id}/init`)).body;
    expect(init.conversation.session_id).toBe(init.session.id);
    expect((await api('GET', '/api/conversations')).body.conversations).toHaveLength(1);
    expect((await api('DELETE', `/api/conversations/${created.id}`)).status).toBe(204);
  });

  test('the OpenAPI document and Swagger UI are served from the service itself', async () => {
    await using wb = await startWorkbench([], { configure: false });
    const page = await fetch(`${wb.base}/docs`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
    const document = (await wb.api('GET', '/docs/json')).body;
    for (const path of [
      '/api/tasks/{id}/submit-mr',
      '/api/todos/{id}/execute',
      '/api/sessions/{id}/logs',
      '/api/settings/check',
    ]) {
      expect(Object.keys(document.paths)).toContain(path);
    }
  });
});
