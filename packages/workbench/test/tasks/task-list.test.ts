// `GET /api/tasks` lists tasks with their images' sizes, read by SQLite: never the images themselves (issue
// #28: twenty tasks with megabytes of images each took the service to 1.4 GB to list them).
import { describe, expect, test } from 'vitest';
import { knowledgeScript, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';

describe('the task list', () => {
  test("shows each image's media type, file name and size, as the task's own view does", async () => {
    const repo = repoWithRemote(tempDir('list'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench(knowledgeScript(1));
    const { api } = wb;
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    // 3 MiB of image data, and a small one with no file name.
    const big = Buffer.alloc(3 * 1024 * 1024, 7).toString('base64');
    const created = await api('POST', '/api/tasks', {
      project_id: project.id,
      description: 'With images',
      images: [
        { data: big, media_type: 'image/png', filename: 'screen.png' },
        { data: 'iVBORw0KGgo=', media_type: 'image/jpeg' },
      ],
    });
    expect(created.status).toBe(201);
    const plain = await api('POST', '/api/tasks', { project_id: project.id, description: 'No images' });
    expect(plain.status).toBe(201);

    const listed = await api('GET', '/api/tasks');
    expect(listed.status).toBe(200);
    const [withImages, without] = listed.body.tasks;
    expect(withImages.images).toEqual([
      { media_type: 'image/png', filename: 'screen.png', bytes: 3 * 1024 * 1024 },
      { media_type: 'image/jpeg', bytes: 8 },
    ]);
    expect(without.images).toEqual([]);
    // The same as the task's own view, which reads the task whole.
    expect((await api('GET', `/api/tasks/${created.body.id}`)).body.images).toEqual(withImages.images);
    expect(JSON.stringify(listed.body)).not.toContain(big.slice(0, 100));
    // By project too.
    const byProject = await api('GET', `/api/tasks?project_id=${project.id}`);
    expect(byProject.body.tasks.map((task: { id: string }) => task.id)).toEqual([
      created.body.id,
      plain.body.id,
    ]);
  });
});
