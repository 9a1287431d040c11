import { describe, expect, test } from 'vitest';
import { repoWithRemote, startWorkbench, tempDir } from '../../workbench/test/harness.ts';
import { createWorkbenchClient, WorkbenchApiError } from '../src/index.ts';

/** A 1×1 PNG. */
const png =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('the routes an app needs beside the flow (the SPA: skills, conversations, directories, images)', () => {
  test('skills, conversations, directories, MCP health and a task image, each in its schema', async () => {
    const root = tempDir('client-library');
    const repo = repoWithRemote(root, 'app', { 'src/app.js': 'console.log(1);\n' });
    await using wb = await startWorkbench();
    const client = createWorkbenchClient({ baseUrl: wb.base });

    const project = await client.projects.create({
      name: 'p',
      repositories: [{ path: repo.dir, type: 'custom' }],
    });
    const skill = await client.skills.create({ name: 'code-review', description: 'Reviews code' });
    expect(skill).toMatchObject({ name: 'code-review', content: '', project_ids: [] });
    expect((await client.skills.update(skill.id, { content: 'Be kind.' })).content).toBe('Be kind.');
    expect((await client.skills.link(skill.id, project.id, true)).project_ids).toEqual([project.id]);
    expect((await client.skills.list()).map((each) => each.id)).toEqual([skill.id]);
    expect((await client.skills.get(skill.id)).content).toBe('Be kind.');
    await client.skills.remove(skill.id);
    expect(await client.skills.list()).toEqual([]);

    const conversation = await client.conversations.create({ title: 'About p', project_id: project.id });
    expect(conversation).toMatchObject({ title: 'About p', project_id: project.id, session_id: null });
    expect((await client.conversations.update(conversation.id, { title: 'Renamed' })).title).toBe('Renamed');
    expect((await client.conversations.list({ projectId: project.id })).map((each) => each.id)).toEqual([
      conversation.id,
    ]);
    const started = await client.conversations.init(conversation.id);
    expect(started.session.id).toBe(started.conversation.session_id);
    expect((await client.conversations.get(conversation.id)).session_id).toBe(started.session.id);
    await client.conversations.remove(conversation.id);

    const listing = await client.directories.list({ path: root });
    expect(listing.path).toBe(root);
    expect(listing.entries.find((entry) => entry.name === 'app')).toMatchObject({ is_git_repo: true });

    const missing = await client.settings.mcpHealth('nope').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(WorkbenchApiError);
    expect(missing).toMatchObject({ status: 404 });

    const task = await client.tasks.create({
      project_id: project.id,
      description: 'With a picture',
      images: [{ data: png, media_type: 'image/png', filename: 'dot.png' }],
    });
    const image = await client.tasks.image(task.id, 0);
    expect(image.type).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).toString('base64')).toBe(png);
    expect(await client.tasks.image(task.id, 3).catch((error: unknown) => error)).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    const aborted = new AbortController();
    aborted.abort();
    expect(
      await client.tasks.image(task.id, 0, { signal: aborted.signal }).catch((error: unknown) => error),
    ).toMatchObject({ name: 'AbortError' });
  });

  test('a key read at every call, and every 401 reported before the call rejects', async () => {
    await using wb = await startWorkbench([], {
      configure: false,
      env: { WORKBENCH_AUTH_API_KEY: 'k-right' },
    });
    let key: string | null = null;
    let refused = 0;
    const client = createWorkbenchClient({
      baseUrl: wb.base,
      apiKey: () => key,
      onUnauthorized: () => {
        refused += 1;
      },
    });
    expect(await client.settings.get().catch((error: unknown) => error)).toMatchObject({ status: 401 });
    expect(await client.sessions.subscribe('wsess_any', {}).catch((error: unknown) => error)).toMatchObject({
      status: 401,
    });
    expect(refused).toBe(2);
    key = 'k-right';
    expect((await client.settings.check()).missing).toContain('model');
    expect(await client.sessions.subscribe('wsess_nope', {}).catch((error: unknown) => error)).toMatchObject({
      code: 'SESSION_NOT_FOUND',
    });
    expect(refused).toBe(2);
  });
});
