import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  type Body,
  eventually,
  planningScript,
  repoWithRemote,
  startWorkbench,
  taskInCoding,
  tempDir,
} from '../harness.ts';

describe('coding: order, a failed todo retried from its before-snapshot, skip and run-all', () => {
  test('the flow continues after a failure with the repositories restored', { timeout: 60_000 }, async () => {
    const root = tempDir('coding');
    const repo = repoWithRemote(root, 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench([
      ...planningScript(1, ['one', 'two', 'three']),
      {
        when: { lastMessageIncludes: 'Do todo 1 of 3' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/one.txt', content: 'partial\n' } }],
      },
      { when: { lastRole: 'tool' }, error: { status: 500, message: 'model down' } },
      {
        when: { lastMessageIncludes: 'Do todo 1 of 3' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/uno.txt', content: 'good\n' } }],
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
    const workspace = join(task.work_dir, 'app');

    expect((await api('POST', `/api/todos/${one.id}/execute`)).status).toBe(202);
    const again = await api('POST', `/api/todos/${one.id}/execute`);
    expect([409]).toContain(again.status);
    const failed = await eventually(async () => {
      const body = (await api('GET', `/api/todos/${one.id}`)).body;
      return body.status === 'failed' && body;
    }, 'todo 1 failed');
    expect(failed.error).toBeTruthy();
    expect(existsSync(join(workspace, 'one.txt'))).toBe(true);
    const live = (await api('GET', `/api/todos/${one.id}/diff`)).body;
    expect(live.repositories[0].files.map((file: Body) => file.path)).toEqual(['one.txt']);
    expect((await api('GET', `/api/sessions/${failed.session_id}/status`)).body.status).toBe('failed');

    const blocked = await api('POST', `/api/todos/${two.id}/execute`);
    expect(blocked.status).toBe(409);
    expect(blocked.body.error).toMatchObject({
      code: 'TODO_OUT_OF_ORDER',
      details: { blocking_todo_id: one.id },
    });

    // The retry starts from the before-snapshot: the partial file is gone, only the new work stays.
    const retry = await api('POST', `/api/todos/${one.id}/execute`);
    expect(retry.status).toBe(202);
    expect(retry.body.session.id).not.toBe(failed.session_id);
    await eventually(
      async () => (await api('GET', `/api/todos/${one.id}`)).body.status === 'done',
      'todo 1 done',
    );
    expect(existsSync(join(workspace, 'one.txt'))).toBe(false);
    expect(existsSync(join(workspace, 'uno.txt'))).toBe(true);
    const oneDiff = (await api('GET', `/api/todos/${one.id}/diff`)).body;
    expect(oneDiff.repositories[0].files.map((file: Body) => file.path)).toEqual(['uno.txt']);

    // Skip two, run the rest: the task reaches review. A done todo is not skipped.
    expect((await api('POST', `/api/todos/${one.id}/skip`)).body.error.code).toBe('INVALID_TODO_STATE');
    expect((await api('POST', `/api/todos/${two.id}/skip`)).body.status).toBe('skipped');
    expect((await api('POST', `/api/tasks/${task.id}/run-all`)).status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.state === 'REVIEWING',
      'REVIEWING',
    );
    const diff = (await api('GET', `/api/tasks/${task.id}/diff`)).body;
    expect(diff.repositories[0].files.map((file: Body) => file.path).sort()).toEqual([
      'three.txt',
      'uno.txt',
    ]);
    // Review opens with the reviewer, which finds nothing here.
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.review?.status === 'done',
      'the review',
    );
    expect(wb.model.remaining).toBe(0);
  });
});

describe('cancel and re-open', () => {
  test('cancel stops a running todo; re-open returns to CODING and the todo runs again', {
    timeout: 60_000,
  }, async () => {
    const root = tempDir('cancel');
    const repo = repoWithRemote(root, 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench([
      ...planningScript(1, ['only']),
      { when: { lastMessageIncludes: 'Do todo 1 of 1' }, text: 'slow', delayMs: 60_000 },
      { when: { lastMessageIncludes: 'Do todo 1 of 1' }, text: 'Done.' },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    const todo = task.todos[0] as Body;
    const started = (await api('POST', `/api/todos/${todo.id}/execute`)).body;
    expect(started.session.id).toBeTruthy();
    // Cancel once the model holds the todo's request (the slow reply is consumed, not left for the retry).
    await eventually(
      () =>
        wb.model.chatRequests.some((request) => JSON.stringify(request.messages).includes('Do todo 1 of 1')),
      'the todo request',
    );
    const cancelled = await api('POST', `/api/tasks/${task.id}/cancel`);
    expect(cancelled.body).toMatchObject({ state: 'CANCELLED', cancelled_from: 'CODING' });
    expect((await api('POST', `/api/todos/${todo.id}/execute`)).body.error.code).toBe('INVALID_STATE');
    // Re-opened at once: the re-open waits for the stopping todo instead of answering "still stopping".
    const reopened = await api('POST', `/api/tasks/${task.id}/reopen`);
    expect(reopened.body.state, JSON.stringify(reopened.body)).toBe('CODING');
    expect((await api('GET', `/api/todos/${todo.id}`)).body.status).toBe('failed');
    expect((await api('GET', `/api/sessions/${started.session.id}/status`)).body.status).toBe('cancelled');
    expect((await api('POST', `/api/todos/${todo.id}/execute`)).status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.state === 'REVIEWING',
      'REVIEWING',
    );
  });
});
