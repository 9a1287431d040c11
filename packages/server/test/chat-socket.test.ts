import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually, waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

type Message = { type: string; [key: string]: unknown };

/** A WebSocket client on `path` that collects what the server sends. */
async function connect(base: string, path: string, headers?: Record<string, string>) {
  const url = `${base.replace(/^http/, 'ws')}${path}`;
  // Node's WebSocket (undici) takes headers in its options, as browsers cannot.
  const socket = headers ? new WebSocket(url, { headers } as unknown as string[]) : new WebSocket(url);
  const messages: Message[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.addEventListener('close', (event) => resolve({ code: event.code, reason: event.reason })),
  );
  socket.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data))));
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => resolve(), { once: true });
    setTimeout(() => reject(new Error('no open')), 5000);
  });
  return {
    socket,
    messages,
    closed,
    send: (message: unknown) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    next(match: (message: Message) => boolean, from = 0): Promise<Message> {
      return eventually(() => messages.slice(from).find(match), {
        timeoutMs: 10_000,
        intervalMs: 20,
        what: () => `a matching message; got ${JSON.stringify(messages)}`,
      });
    },
  };
}

describe('WS /ws/chat/{project_id} and /ws/chat/task/{task_id}', () => {
  test('a project chat: ready, then each turn runs in the project session and workdir, the model seeing the history', async () => {
    await using s = await startServer([
      { text: 'Hello, I see the project.' },
      { when: { lastMessageIncludes: 'and now?' }, text: 'Still here.' },
    ]);
    const project = (await s.api('POST', '/api/projects', { name: 'App', workdir: s.repo.path })).body;
    const chat = await connect(s.base, `/ws/chat/${project.id}`);
    expect(await chat.next((m) => m.type === 'ready')).toEqual({
      type: 'ready',
      project_id: project.id,
      session_id: project.session_id,
      workdir: s.repo.path,
    });
    chat.send({ type: 'run', data: { prompt: 'hello?' } });
    const start = await chat.next((m) => m.type === 'start');
    expect(start).toMatchObject({
      session_id: project.session_id,
      run_id: expect.stringMatching(/^run_/),
      seq: 1,
    });
    expect(await chat.next((m) => m.type === 'done')).toMatchObject({ output: 'Hello, I see the project.' });
    const types = chat.messages.map((m) => m.type);
    expect(types.slice(0, 2)).toEqual(['ready', 'start']);
    expect(types).toContain('text_delta');
    const seqs = chat.messages.filter((m) => typeof m.seq === 'number').map((m) => m.seq);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));

    const from = chat.messages.length;
    chat.send({ type: 'run', data: { prompt: 'and now?' } });
    expect(await chat.next((m) => m.type === 'done', from)).toMatchObject({ output: 'Still here.' });
    const second = s.model.chatRequests[1]?.messages?.map((message) => message.content);
    expect(second).toEqual(expect.arrayContaining(['hello?', 'Hello, I see the project.', 'and now?']));
    const run = (await s.api('GET', `/runtime/runs/${start.run_id}`)).body;
    expect(run).toMatchObject({ status: 'succeeded', session_id: project.session_id, workdir: s.repo.path });
    expect((await s.api('GET', `/sessions/${project.session_id}`)).body.message_count).toBe(4);
    chat.socket.close();
  });

  test("a task chat checks out the task's branch first and talks in the task's own session", async () => {
    await using s = await startServer([{ text: 'On it.' }], { files: { 'a.txt': 'a\n' } });
    const project = (await s.api('POST', '/api/projects', { name: 'App', workdir: s.repo.path })).body;
    const login = (
      await s.api('POST', `/api/projects/${project.id}/tasks`, { name: 'Login', branch_name: 'login' })
    ).body;
    await s.api('POST', `/api/projects/${project.id}/tasks`, { name: 'Other', branch_name: 'other' });
    expect((await s.repo.git('branch', '--show-current')).trim()).toBe('other');

    const chat = await connect(s.base, `/ws/chat/task/${login.id}`);
    expect(await chat.next((m) => m.type === 'ready')).toEqual({
      type: 'ready',
      project_id: project.id,
      task_id: login.id,
      branch_name: 'login',
      session_id: login.session_id,
      workdir: s.repo.path,
    });
    chat.send({ type: 'run', data: { prompt: 'fix the login' } });
    expect(await chat.next((m) => m.type === 'start')).toMatchObject({ session_id: login.session_id });
    expect(await chat.next((m) => m.type === 'done')).toMatchObject({ output: 'On it.' });
    expect((await s.repo.git('branch', '--show-current')).trim()).toBe('login');

    // Back on another branch with uncommitted work: the turn is refused, nothing moves.
    await s.repo.git('switch', '-q', 'other');
    await writeFile(join(s.repo.path, 'a.txt'), 'unsaved\n');
    const from = chat.messages.length;
    chat.send({ type: 'run', data: { prompt: 'again' } });
    const refused = await chat.next((m) => m.type === 'error', from);
    expect(refused.error).toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringContaining('uncommitted'),
    });
    expect((await s.repo.git('branch', '--show-current')).trim()).toBe('other');
    chat.send({ type: 'ping' });
    await chat.next((m) => m.type === 'pong');
    chat.socket.close();
  });

  test('a reconnect with ?after= gets ready, resuming and exactly the events after the cursor', async () => {
    await using s = await startServer([
      // Held inside this command until the test creates `go`: the run is surely still going on reconnect.
      { toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('go') } }] },
      { when: { lastRole: 'tool' }, text: 'tick '.repeat(40), chunkDelayMs: 5 },
    ]);
    const project = (await s.api('POST', '/api/projects', { name: 'App', workdir: s.repo.path })).body;
    const first = await connect(s.base, `/ws/chat/${project.id}`);
    first.send({ type: 'run', data: { prompt: 'count' } });
    const start = await first.next((m) => m.type === 'start');
    const seen = await first.next((m) => m.type === 'tool_call');
    first.socket.close();
    await first.closed;

    const again = await connect(s.base, `/ws/chat/${project.id}?after=${seen.seq}`);
    await again.next((m) => m.type === 'ready');
    expect(await again.next((m) => m.type === 'resuming')).toMatchObject({
      session_id: project.session_id,
      run_id: start.run_id,
    });
    await writeFile(join(s.repo.path, 'go'), '');
    expect(await again.next((m) => m.type === 'done')).toMatchObject({ output: 'tick '.repeat(40) });
    const seqs = again.messages.filter((m) => typeof m.seq === 'number').map((m) => m.seq as number);
    expect(seqs[0]).toBe((seen.seq as number) + 1);
    expect(seqs).toEqual(seqs.map((_, index) => seqs[0]! + index));
    again.socket.close();
  });

  test('a missing project or task: an error message, then close code 4004; bad messages keep the socket open', async () => {
    await using s = await startServer([]);
    const missing = await connect(s.base, '/ws/chat/prj_nope');
    expect((await missing.next((m) => m.type === 'error')).error).toMatchObject({
      code: 'PROJECT_NOT_FOUND',
    });
    expect((await missing.closed).code).toBe(4004);
    const missingTask = await connect(s.base, '/ws/chat/task/tsk_nope');
    expect((await missingTask.next((m) => m.type === 'error')).error).toMatchObject({
      code: 'TASK_NOT_FOUND',
    });
    expect((await missingTask.closed).code).toBe(4004);

    const project = (await s.api('POST', '/api/projects', { name: 'App', workdir: s.repo.path })).body;
    const chat = await connect(s.base, `/ws/chat/${project.id}`);
    await chat.next((m) => m.type === 'ready');
    chat.send('not json');
    chat.send({ type: 'run', data: { prompt: 'x', workdir: '/etc' } });
    chat.send({ type: 'run', data: { prompt: 42 } });
    chat.send({ type: 'run', data: { prompt: '   ' } });
    chat.send({ type: 'cancel' });
    await eventually(() => chat.messages.filter((m) => m.type === 'error').length === 5, {
      timeoutMs: 10_000,
      intervalMs: 20,
      what: () => `five errors; got ${JSON.stringify(chat.messages)}`,
    });
    const errors = chat.messages
      .filter((m) => m.type === 'error')
      .map((m) => m.error as { code: string; message: string });
    expect(errors.map((error) => error.code).sort()).toEqual([
      'INVALID_PARAMS',
      'INVALID_PARAMS',
      'INVALID_PARAMS',
      'INVALID_PARAMS',
      'INVALID_STATE',
    ]);
    expect(errors.some((error) => error.message.startsWith('data.workdir: not taken here'))).toBe(true);
    expect((await s.api('GET', '/runtime/runs')).body.runs).toEqual([]);
    chat.send({ type: 'ping' });
    await chat.next((m) => m.type === 'pong');
    chat.socket.close();
  });

  test('with an API key both chat sockets need the token (query or header), else close code 4001', async () => {
    await using s = await startServer([{ text: 'Authorised.' }], { apiKey: 'sekret' });
    const auth = { authorization: 'Bearer sekret' };
    const project = (await s.api('POST', '/api/projects', { name: 'App', workdir: s.repo.path }, auth)).body;
    const task = (
      await s.api('POST', `/api/projects/${project.id}/tasks`, { name: 't', branch_name: 't' }, auth)
    ).body;
    for (const path of [`/ws/chat/${project.id}`, `/ws/chat/task/${task.id}`]) {
      const refused = await connect(s.base, path);
      expect((await refused.closed).code, path).toBe(4001);
      const wrong = await connect(s.base, `${path}?token=nope`);
      expect((await wrong.closed).code, path).toBe(4001);
      const wrongHeader = await connect(s.base, path, { authorization: 'Bearer nope' });
      expect((await wrongHeader.closed).code, path).toBe(4001);
      expect(refused.messages).toEqual([]);
    }
    const byQuery = await connect(s.base, `/ws/chat/${project.id}?token=sekret`);
    await byQuery.next((m) => m.type === 'ready');
    byQuery.send({ type: 'run', data: { prompt: 'hi' } });
    expect(await byQuery.next((m) => m.type === 'done')).toMatchObject({ output: 'Authorised.' });
    byQuery.socket.close();
    const byHeader = await connect(s.base, `/ws/chat/task/${task.id}`, auth);
    expect(await byHeader.next((m) => m.type === 'ready')).toMatchObject({ task_id: task.id });
    byHeader.socket.close();
    const failures = (await s.api('GET', '/audit?event=auth_failure', undefined, auth)).body.entries;
    expect(failures.some((entry: { args_summary: string }) => entry.args_summary.includes('/ws/chat/'))).toBe(
      true,
    );
  });
});
