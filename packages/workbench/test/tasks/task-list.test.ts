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

  test('each image by its own URL: its bytes and media type, sandboxed; an SVG only as a download', async () => {
    const repo = repoWithRemote(tempDir('images'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench(knowledgeScript(1));
    const { api, base } = wb;
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const task = (
      await api('POST', '/api/tasks', {
        project_id: project.id,
        description: 'With images',
        images: [
          { data: png.toString('base64'), media_type: 'image/png', filename: 'screen.png' },
          { data: svg.toString('base64'), media_type: 'image/svg+xml', filename: 'bad"name.svg' },
        ],
      })
    ).body;

    const first = await fetch(`${base}/api/tasks/${task.id}/images/0`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await first.arrayBuffer())).toEqual(png);
    expect(first.headers.get('content-security-policy')).toContain('sandbox');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('content-disposition')).toBeNull();

    const second = await fetch(`${base}/api/tasks/${task.id}/images/1`);
    expect(second.status).toBe(200);
    expect(second.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(second.headers.get('content-disposition')).toBe('attachment; filename="bad_name.svg"');
    expect(Buffer.from(await second.arrayBuffer())).toEqual(svg);

    for (const [path, code] of [
      [`/api/tasks/${task.id}/images/2`, 'NOT_FOUND'],
      ['/api/tasks/task_nope/images/0', 'TASK_NOT_FOUND'],
    ] as const) {
      const missing = await api('GET', path);
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe(code);
    }
    for (const index of ['-1', 'x', '1.5', '999']) {
      const bad = await api('GET', `/api/tasks/${task.id}/images/${index}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('INVALID_PARAMS');
    }
  });
});
