// Issue #23: a session is held from its 202 (not from its turn), stop, delete with running work, skip out
// of order, a todo's final state published with its session's end, and the commit identity.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createRunnerRegistry, type Runner } from '../../src/runners/index.ts';
import {
  type Api,
  type Body,
  connect,
  eventually,
  knowledgeScript,
  planningScript,
  repoWithRemote,
  startWorkbench,
  taskInCoding,
  tempDir,
} from '../harness.ts';

/** A web server whose answers wait until the test releases them; `asked` resolves at the first request. */
async function heldWeb() {
  const waiting: ServerResponse[] = [];
  let onRequest = () => {};
  const asked = new Promise<void>((resolve) => {
    onRequest = resolve;
  });
  const server = createServer((_request, response) => {
    waiting.push(response);
    onRequest();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    asked,
    release() {
      for (const response of waiting.splice(0)) {
        response.writeHead(200, { 'content-type': 'text/markdown' }).end('# PRD\n\nSay hi.');
      }
    },
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A READY project of `path`, and a task of it through init (both by themselves), confirmed (PLANNING):
 * its first plan draft has started by itself in `plan_session_id`.
 */
async function planningTask(api: Api, path: string, prdLinks: string[] = []): Promise<Body> {
  const project = (
    await api('POST', '/api/projects', { name: 'p', repositories: [{ path, type: 'custom' }] })
  ).body;
  await eventually(
    async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
    'READY',
  );
  const task = (
    await api('POST', '/api/tasks', { project_id: project.id, description: 'A task', prd_links: prdLinks })
  ).body;
  await eventually(
    async () => (await api('GET', `/api/tasks/${task.id}`)).body.init.status === 'done',
    'init',
  );
  return (await api('POST', `/api/tasks/${task.id}/confirm-init`)).body;
}

/** Requests the model got whose messages mention `text`. */
function asked(wb: Awaited<ReturnType<typeof startWorkbench>>, text: string): number {
  return wb.model.chatRequests.filter((request) => JSON.stringify(request.messages).includes(text)).length;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

describe('a session is busy from its 202', () => {
  test('a second plan request while the PRD links are fetched is refused, a chat is queued; the plan runs once', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('busy'), 'app', { 'a.txt': 'a\n' });
    await using web = await heldWeb();
    await using wb = await startWorkbench([
      ...knowledgeScript(1),
      { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nThe one plan.' },
      { when: { lastMessageIncludes: 'Answer me instead' }, text: '# Plan\n\nRefined.' },
    ]);
    const { api } = wb;
    await api('PUT', '/api/settings', { prd_links: { allowed_hosts: ['127.0.0.1'] } });
    const task = await planningTask(api, repo.dir, [`${web.base}/prd.md`]);

    // Confirming started the first draft by itself.
    expect(task.state).toBe('PLANNING');
    const sessionId = task.plan_session_id;
    expect(sessionId).toEqual(expect.any(String));
    await web.asked; // the gap: the draft is accepted, its turn has not started

    const again = await api('POST', `/api/tasks/${task.id}/plan`, { message: 'Another one' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      code: 'SESSION_BUSY',
      details: { session_id: sessionId, running: 'writing the technical plan' },
    });
    expect(again.body.error.message).toContain('busy with writing the technical plan');
    expect(again.body.error.message).toContain('Wait for it to finish, or stop it');
    // The session is busy (and says so) before its turn started.
    expect((await api('GET', `/api/sessions/${sessionId}/status`)).body).toMatchObject({
      status: 'queued',
      busy: true,
    });
    const listed = (await api('GET', `/api/tasks/${task.id}`)).body.sessions as Body[];
    expect(listed.find((session) => session.id === sessionId)).toMatchObject({
      kind: 'plan',
      status: 'queued',
      busy: true,
    });
    expect(listed.find((session) => session.kind === 'task_init')).toMatchObject({ busy: false });
    // A chat message is not refused: it waits for the draft, then refines the plan as its own turn.
    const client = await connect(wb.base);
    client.send({ type: 'chat', session_id: sessionId, content: 'Answer me instead' });
    const queued = await client.next((m) => m.type === 'queued');
    expect(queued).toMatchObject({ session_id: sessionId, queued: true, position: 1 });

    web.release();
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan === '# Plan\n\nRefined.\n',
      'the queued refinement',
    );
    await eventually(async () => {
      const row = (await api('GET', `/api/sessions/${sessionId}/status`)).body;
      return row.status === 'succeeded' && !row.busy;
    }, 'both turns over');
    expect(
      ((await api('GET', `/api/tasks/${task.id}`)).body.sessions as Body[]).every((session) => !session.busy),
    ).toBe(true);
    const versions = (await api('GET', `/api/tasks/${task.id}/plan/versions`)).body.versions as Body[];
    expect(versions.map((version) => version.content)).toEqual([
      '# Plan\n\nThe one plan.\n',
      '# Plan\n\nRefined.\n',
    ]);
    expect(asked(wb, 'Write the technical plan')).toBe(2); // the draft, and the history the chat turn carries
    expect(asked(wb, 'Answer me instead')).toBe(1);
    expect(asked(wb, 'Another one')).toBe(0);
    client.socket.close();
  });

  test('the commit message is written on entering review; two more requests at once: one runs, the other is 409', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('busy2'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench([
      ...planningScript(1, ['one']),
      {
        when: { lastMessageIncludes: 'Do todo 1 of 1' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/one.txt', content: '1\n' } }],
      },
      { when: { lastRole: 'tool' }, text: 'Done one.' },
      { when: { lastMessageIncludes: 'Chat in the gap' }, text: 'Noted.' },
      { when: { lastMessageIncludes: 'Write the commit message' }, text: 'feat: one' },
      { when: { lastMessageIncludes: 'Write the commit message' }, text: 'feat: two' },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    const todo = task.todos[0] as Body;

    const executed = await api('POST', `/api/todos/${todo.id}/execute`);
    expect(executed.status).toBe(202);
    const sessionId = executed.body.session.id;
    const client = await connect(wb.base);
    client.send({ type: 'subscribe', channel: `session:${sessionId}` });
    client.send({ type: 'chat', session_id: sessionId, content: 'Chat in the gap' });
    expect(await client.next((m) => m.type === 'queued')).toMatchObject({ queued: true, position: 1 });
    // The queued chat steers the todo: it is answered within it, and the todo is done only after.
    await eventually(() => asked(wb, 'Chat in the gap') === 1, 'the queued chat, within the todo');
    await eventually(
      async () => !(await api('GET', `/api/sessions/${sessionId}/status`)).body.busy,
      'the todo session free',
    );
    expect((await api('GET', `/api/todos/${todo.id}`)).body.status).toBe('done');
    expect((await api('GET', `/api/tasks/${task.id}`)).body.state).toBe('REVIEWING');
    client.socket.close();

    // Entering review wrote the commit message by itself.
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.commit_message === 'feat: one',
      'the automatic commit message',
    );
    const reviewId = (await api('GET', `/api/tasks/${task.id}`)).body.review_session_id;
    await eventually(
      async () => (await api('GET', `/api/sessions/${reviewId}/status`)).body.status === 'succeeded',
      'the review turn',
    );
    const [first, second] = await Promise.all([
      api('POST', `/api/tasks/${task.id}/commit-message`),
      api('POST', `/api/tasks/${task.id}/commit-message`),
    ]);
    expect([first.status, second.status].sort()).toEqual([202, 409]);
    const busy = first.status === 409 ? first : second;
    expect(busy.body.error).toMatchObject({
      code: 'SESSION_BUSY',
      details: { running: 'writing the commit message' },
    });
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.commit_message === 'feat: two',
      'commit message',
    );
    expect(asked(wb, 'Write the commit message')).toBe(2);
  });
});

describe('POST /api/sessions/{id}/stop', () => {
  test('stops a running todo: answered once it ended, the todo failed; executing it again works', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('stop'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench([
      ...planningScript(1, ['only']),
      { when: { lastMessageIncludes: 'Do todo 1 of 1' }, text: 'slow', delayMs: 60_000 },
      { when: { lastMessageIncludes: 'Do todo 1 of 1' }, text: 'Done.' },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    const todo = task.todos[0] as Body;
    const sessionId = (await api('POST', `/api/todos/${todo.id}/execute`)).body.session.id;
    await eventually(() => asked(wb, 'Do todo 1 of 1') === 1, 'the todo request');

    expect((await api('GET', `/api/sessions/${sessionId}/status`)).body.busy).toBe(true);
    const stopped = await api('POST', `/api/sessions/${sessionId}/stop`);
    expect(stopped.status).toBe(200);
    // Logged as stopped, not as a runner failure.
    expect(stopped.body).toMatchObject({
      id: sessionId,
      status: 'cancelled',
      busy: false,
      error: { code: 'CANCELLED', message: 'Stopped by the user.' },
    });
    const entries = (await api('GET', `/api/sessions/${sessionId}/logs`)).body.entries as Body[];
    expect(entries.at(-1)?.event).toEqual({
      type: 'error',
      error: { code: 'CANCELLED', message: 'Stopped by the user.' },
    });
    expect(JSON.stringify(entries)).not.toContain('RUNNER_FAILED');
    const failed = (await api('GET', `/api/todos/${todo.id}`)).body;
    // Failed, so that it can run again, with a code that says the user stopped it (no failure of the work).
    expect(failed).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('Stopped'),
      error_code: 'STOPPED',
    });
    expect((await api('GET', `/api/tasks/${task.id}`)).body.state).toBe('CODING');

    const again = await api('POST', `/api/sessions/${sessionId}/stop`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'SESSION_NOT_RUNNING', details: { status: 'cancelled' } });
    const unknown = await api('POST', '/api/sessions/wses_missing/stop');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('SESSION_NOT_FOUND');

    const retry = await api('POST', `/api/todos/${todo.id}/execute`);
    expect(retry.status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/todos/${todo.id}`)).body.status === 'done',
      'todo done',
    );
    expect((await api('GET', `/api/tasks/${task.id}`)).body.state).toBe('REVIEWING');
  });

  test('stops a plan turn: the plan keeps its last version and can be refined again', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('stop-plan'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench([
      ...knowledgeScript(1),
      { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan v1' },
      { when: { lastMessageIncludes: 'Slow change' }, text: '# Plan never', delayMs: 60_000 },
      { when: { lastMessageIncludes: 'Quick change' }, text: '# Plan v2' },
    ]);
    const { api } = wb;
    const task = await planningTask(api, repo.dir);
    const sessionId = task.plan_session_id;
    await eventually(async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan, 'plan v1');
    await eventually(
      async () => (await api('GET', `/api/sessions/${sessionId}/status`)).body.status === 'succeeded',
      'the draft turn',
    );

    expect((await api('POST', `/api/tasks/${task.id}/plan`, { message: 'Slow change' })).status).toBe(202);
    await eventually(() => asked(wb, 'Slow change') === 1, 'the refinement request');
    const stopped = await api('POST', `/api/sessions/${sessionId}/stop`);
    expect(stopped.body).toMatchObject({ status: 'cancelled' });
    const after = (await api('GET', `/api/tasks/${task.id}`)).body;
    expect(after).toMatchObject({ state: 'PLANNING', plan: '# Plan v1\n' });

    expect((await api('POST', `/api/tasks/${task.id}/plan`, { message: 'Quick change' })).status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan === '# Plan v2\n',
      'plan v2',
    );
  });
  test('stops any runner kind through the signal its run gets (a command-line agent here)', async () => {
    let started = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    // Stands in for a command-line agent: it ends only when its run's signal is aborted, as they do.
    const agent: Runner = {
      kind: 'codex',
      check: async () => ({ kind: 'codex', usable: true }),
      run: (request) =>
        new Promise((resolve) => {
          started();
          request.signal.addEventListener('abort', () =>
            resolve({ status: 'cancelled', output: '', error: { code: 'CANCELLED', message: 'killed' } }),
          );
        }),
    };
    await using wb = await startWorkbench([], {
      workbench: { runners: createRunnerRegistry({ keel: { env: {} }, runners: [agent] }) },
    });
    const { api } = wb;
    await api('PUT', '/api/settings', { default_runner: 'codex' });
    const conversation = (await api('POST', '/api/conversations', { title: 'c' })).body;
    const sessionId = (await api('POST', `/api/conversations/${conversation.id}/init`)).body.session.id;
    const client = await connect(wb.base);
    client.send({ type: 'chat', session_id: sessionId, content: 'Work forever' });
    await running;
    const stopped = await api('POST', `/api/sessions/${sessionId}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ status: 'cancelled', runner: 'codex' });
    client.socket.close();
  });
});

describe('deleting with running work stops it first', () => {
  for (const what of ['task', 'project'] as const) {
    test(`DELETE the ${what} while a todo runs: 204 once it stopped, the work directory gone for good`, {
      timeout: 60_000,
    }, async () => {
      const repo = repoWithRemote(tempDir(`delete-${what}`), 'app', { 'a.txt': 'a\n' });
      await using wb = await startWorkbench([
        ...planningScript(1, ['only']),
        { when: { lastMessageIncludes: 'Do todo 1 of 1' }, text: 'slow', delayMs: 60_000 },
      ]);
      const { api } = wb;
      const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
      const todo = task.todos[0] as Body;
      const sessionId = (await api('POST', `/api/todos/${todo.id}/execute`)).body.session.id;
      await eventually(() => asked(wb, 'Do todo 1 of 1') === 1, 'the todo request');
      expect(existsSync(task.work_dir)).toBe(true);

      const path = what === 'task' ? `/api/tasks/${task.id}` : `/api/projects/${task.project_id}`;
      const deleted = await api('DELETE', path);
      expect(deleted.status).toBe(204);
      // Answered after the work ended: the session is over and the directory is gone.
      expect((await api('GET', `/api/sessions/${sessionId}/status`)).body.status).toBe('cancelled');
      expect(existsSync(task.work_dir)).toBe(false);
      expect((await api('GET', `/api/tasks/${task.id}`)).status).toBe(404);
      // Nothing of the task is left running to write it again.
      await wb.workbench.services.background.idle();
      expect(existsSync(task.work_dir)).toBe(false);
      expect((await api('POST', `/api/sessions/${sessionId}/stop`)).status).toBe(409);
    });
  }
});

describe('skip', () => {
  test('any pending todo can be skipped, out of order; Run All leaves it out', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('skip'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench([
      ...planningScript(1, ['one', 'two', 'three']),
      {
        when: { lastMessageIncludes: 'Do todo 1 of 3' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/one.txt', content: '1\n' } }],
      },
      { when: { lastRole: 'tool' }, text: 'Done one.' },
      {
        when: { lastMessageIncludes: 'Do todo 3 of 3' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/three.txt', content: '3\n' } }],
      },
      { when: { lastRole: 'tool' }, text: 'Done three.' },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    const [one, two] = task.todos as Body[];

    const skipped = await api('POST', `/api/todos/${two.id}/skip`);
    expect(skipped.status).toBe(200);
    expect(skipped.body.status).toBe('skipped');
    expect((await api('POST', `/api/tasks/${task.id}/run-all`)).status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.state === 'REVIEWING',
      'REVIEWING',
    );
    const todos = (await api('GET', `/api/tasks/${task.id}/todos`)).body.todos as Body[];
    expect(todos.map((todo) => todo.status)).toEqual(['done', 'skipped', 'done']);
    expect(asked(wb, 'Do todo 2 of 3')).toBe(0);
    expect((await api('POST', `/api/todos/${one.id}/skip`)).body.error.code).toBe('INVALID_STATE');
  });
});

describe('steering a running todo', () => {
  test('a message queued during the todo is answered within it: the todo is done only after, with its changes', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('steer'), 'app', { 'a.txt': 'a\n' });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await using wb = await startWorkbench([
      ...planningScript(2, ['one', 'two']),
      {
        when: { lastMessageIncludes: 'Do todo 1 of 2' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/one.txt', content: '1\n' } }],
      },
      { when: { lastRole: 'tool' }, text: 'Done one.', until: held },
      {
        when: { lastMessageIncludes: 'Also write a note.' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/note.txt', content: 'note\n' } }],
      },
      { when: { lastRole: 'tool' }, text: 'Wrote the note too.' },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    const [one] = task.todos as Body[];
    expect((await api('POST', `/api/todos/${one.id}/execute`)).status).toBe(202);
    await eventually(() => asked(wb, 'Do todo 1 of 2') > 0 && asked(wb, 'Done one') === 0, 'the todo turn');
    const sessionId = (await api('GET', `/api/tasks/${task.id}`)).body.todos[0].session_id;
    await eventually(async () => asked(wb, 'one.txt') > 0, 'the first tool call answered');
    const sent = await api('POST', `/api/sessions/${sessionId}/messages`, { content: 'Also write a note.' });
    expect(sent.status).toBe(202);
    expect(sent.body.queued).toBe(true);
    release();
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.todos[0].status === 'done',
      'the todo done',
    );
    // The user's message ran inside the todo, before its after-snapshot: its change is the todo's.
    expect(asked(wb, 'Also write a note.')).toBeGreaterThan(0);
    const diff = (await api('GET', `/api/todos/${one.id}/diff`)).body;
    expect(diff.repositories[0].files.map((file: Body) => file.path).sort()).toEqual(['note.txt', 'one.txt']);
    const session = (await api('GET', `/api/sessions/${sessionId}/status`)).body;
    expect(session).toMatchObject({ status: 'succeeded', busy: false });
    expect((await api('GET', `/api/sessions/${sessionId}/queue`)).body.messages).toEqual([]);
    // The next todo has not started by itself (no Run all): nothing ran beside the steered turn.
    expect((await api('GET', `/api/tasks/${task.id}`)).body.todos[1].status).toBe('pending');
  });
});

describe('commit identity', () => {
  test("commits carry the source repository's user.name and user.email, not the workspace's config", {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('identity'), 'app', { 'a.txt': 'a\n' });
    git(repo.dir, 'config', 'user.name', 'Source Person');
    git(repo.dir, 'config', 'user.email', 'source@example.invalid');
    await using wb = await startWorkbench([
      ...planningScript(1, ['one']),
      {
        when: { lastMessageIncludes: 'Do todo 1 of 1' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/one.txt', content: '1\n' } }],
      },
      { when: { lastRole: 'tool' }, text: 'Done one.' },
      { when: { lastMessageIncludes: 'Write the commit message' }, text: 'feat: one' },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    expect((await api('POST', `/api/todos/${(task.todos[0] as Body).id}/execute`)).status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.commit_message === 'feat: one',
      'REVIEWING, the commit message written',
    );
    const reviewId = (await api('GET', `/api/tasks/${task.id}`)).body.review_session_id;
    await eventually(
      async () => (await api('GET', `/api/sessions/${reviewId}/status`)).body.status === 'succeeded',
      'the review turn',
    );
    // What a model could have written into the workspace's own config does not name the author.
    const workspace = join(task.work_dir, 'app');
    writeFileSync(
      join(workspace, '.git', 'config'),
      '[user]\n\tname = Model\n\temail = model@evil.invalid\n',
      { flag: 'a' },
    );
    const submitted = await api('POST', `/api/tasks/${task.id}/submit-mr`, {});
    expect(submitted.status).toBe(200);
    expect(submitted.body.state).toBe('DONE');
    // A remote with no forge: the record says what was done and what is left, in words.
    expect(submitted.body.results[0].merge_request).toEqual({
      url: null,
      note: `Pushed branch ${task.branch} to ${repo.bare}; this remote has no merge-request API Keel knows (GitHub or GitLab): open the merge request there.`,
    });
    expect(repo.git('log', '-1', '--format=%an <%ae>|%cn <%ce>', task.branch)).toBe(
      'Source Person <source@example.invalid>|Source Person <source@example.invalid>',
    );
  });
  test('a source repository that names nobody: the git_identity setting authors the commit', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('identity-setting'), 'app', { 'a.txt': 'a\n' });
    git(repo.dir, 'config', '--unset', 'user.name');
    git(repo.dir, 'config', '--unset', 'user.email');
    // Nor does git's global file name anyone (this machine's might).
    const globalBefore = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = '/dev/null';
    try {
      await using wb = await startWorkbench([
        ...planningScript(1, ['one']),
        {
          when: { lastMessageIncludes: 'Do todo 1 of 1' },
          toolCalls: [{ name: 'write_file', arguments: { path: 'app/one.txt', content: '1\n' } }],
        },
        { when: { lastRole: 'tool' }, text: 'Done one.' },
        { when: { lastMessageIncludes: 'Write the commit message' }, text: 'feat: one' },
      ]);
      const { api } = wb;
      const put = await api('PUT', '/api/settings', {
        git_identity: { name: 'Set Person', email: 'set@example.invalid' },
      });
      expect(put.status).toBe(200);
      const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
      expect((await api('POST', `/api/todos/${(task.todos[0] as Body).id}/execute`)).status).toBe(202);
      await eventually(
        async () => (await api('GET', `/api/tasks/${task.id}`)).body.commit_message === 'feat: one',
        'REVIEWING, the commit message written',
      );
      const reviewId = (await api('GET', `/api/tasks/${task.id}`)).body.review_session_id;
      await eventually(
        async () => (await api('GET', `/api/sessions/${reviewId}/status`)).body.status === 'succeeded',
        'the review turn',
      );
      expect((await api('POST', `/api/tasks/${task.id}/submit-mr`, {})).status).toBe(200);
      expect(repo.git('log', '-1', '--format=%an <%ae>|%cn <%ce>', task.branch)).toBe(
        'Set Person <set@example.invalid>|Set Person <set@example.invalid>',
      );
    } finally {
      if (globalBefore === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = globalBefore;
    }
  });
});
