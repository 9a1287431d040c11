// Issue #38: `project:{id}` on the WebSocket: the project and its knowledge layers on every change, so a page
// waiting for READY needs no polling. Over a real socket against the real service.
import { describe, expect, test } from 'vitest';
import { connect, eventually, knowledgeScript, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';

describe('WS /api/ws: project:{id}', () => {
  test('the snapshot at once, then every change of the knowledge layers up to READY; an unknown one is refused', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const [structure, ...rest] = knowledgeScript(1);
    await using wb = await startWorkbench([{ ...structure, until: held }, ...rest]);
    const repo = repoWithRemote(tempDir('project-channel'), 'app', { 'README.md': '# app\n' });
    const project = (
      await wb.api('POST', '/api/projects', {
        name: 'p',
        repositories: [{ path: repo.dir, type: 'backend' }],
      })
    ).body;
    const client = await connect(wb.base);
    const channel = `project:${project.id}`;
    client.send({ type: 'subscribe', channel });
    await client.next((message) => message.type === 'subscribed' && message.channel === channel);
    const first = await client.next((message) => message.type === 'project');
    expect(first).toMatchObject({
      channel,
      project: { id: project.id, status: 'INITIALIZING', error: null, knowledge: expect.any(Array) },
    });

    // The structure layer is held: its end, and READY, come over the channel as they happen.
    release();
    const ready = await client.next(
      (message) => message.type === 'project' && (message.project as { status: string }).status === 'READY',
      30_000,
    );
    const layers = (ready.project as { knowledge: { layer: string; status: string }[] }).knowledge;
    expect(layers.map((layer) => layer.layer).sort()).toEqual([
      'business_flow',
      'index',
      'modules',
      'structure',
    ]);
    expect(layers.every((layer) => layer.status === 'done')).toBe(true);
    // Layers in between were told too (not only the end).
    const told = client.messages.filter((message) => message.type === 'project');
    expect(told.length).toBeGreaterThan(2);

    // Bad input: an unknown project is refused on its channel; a malformed channel names the three kinds.
    client.send({ type: 'subscribe', channel: 'project:proj_missing' });
    const refused = await client.next(
      (message) => message.type === 'error' && message.channel === 'project:proj_missing',
    );
    expect(refused).toMatchObject({ error: { code: 'PROJECT_NOT_FOUND' } });
    client.send({ type: 'subscribe', channel: 'projects:x' });
    const malformed = await client.next(
      (message) => message.type === 'error' && JSON.stringify(message).includes("'project:<project_id>'"),
    );
    expect(malformed).toMatchObject({ error: { code: 'INVALID_PARAMS' } });
    await eventually(async () => (await wb.api('GET', '/health')).status === 200, 'healthy');
    client.socket.close();
  });
});
