// Issue #37, item 4: a check that cannot run (a command or module missing) is the environment's problem,
// reported on the todo and the task, never a repair turn; the checks' baseline on the untouched workspace
// keeps a check that already failed before any change from failing todos.
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
  todoEnded,
} from '../harness.ts';

type Api = (method: string, path: string, body?: unknown) => Promise<Body>;

const write = (path: string, content: string) => ({
  toolCalls: [{ name: 'write_file', arguments: { path, content } }],
});

/** The model was asked to repair checks (the repair turn's prompt). */
const repairAsked = (requests: readonly { messages?: unknown }[]) =>
  requests.some((request) => JSON.stringify(request.messages).includes('Fix the code so that they pass'));

async function baselineEnded(api: Api, taskId: string): Promise<Body> {
  await eventually(
    async () => (await api('GET', `/api/tasks/${taskId}`)).body.baseline?.status === 'done',
    'the baseline to end',
  );
  return (await api('GET', `/api/tasks/${taskId}`)).body;
}

describe('environment errors and the checks baseline', () => {
  test('a check whose command does not exist: an environment error on the first todo, no turn and no repair; fixed, the baseline is taken again and the todo runs', {
    timeout: 120_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('env-missing'), 'app', {
      // As a fresh clone of a project whose test runner was never installed.
      'package.json': JSON.stringify({ name: 'app', scripts: { test: 'keel-no-such-runner run' } }),
      'check.js': "console.log('checked');\n",
    });
    await using wb = await startWorkbench([
      ...planningScript(1, ['greet']),
      { when: { lastMessageIncludes: 'Do todo 1 of 1' }, ...write('app/greeting.txt', 'hello\n') },
      { when: { lastRole: 'tool' }, text: 'Wrote a greeting.' },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    await api('PUT', `/api/projects/${task.project_id}`, {
      checks: { app: [{ name: 'test', command: 'npm test' }] },
    });
    const todo = (task.todos as Body[])[0];
    expect((await api('POST', `/api/todos/${todo.id}/execute`)).status).toBe(202);
    const ended = await todoEnded(api, todo.id);
    expect(ended.status).toBe('failed');
    expect(ended.error_code).toBe('ENVIRONMENT_ERROR');
    expect(ended.error).toContain('app: test (`npm test`): command `keel-no-such-runner` not found');
    expect(ended.error).toContain("not the change's fault");
    expect(ended.error).toContain("edit the check in the project's settings");
    // The baseline found it before any change, and the task says so.
    const view = (await api('GET', `/api/tasks/${task.id}`)).body;
    expect(view.baseline).toMatchObject({ status: 'done', error: null });
    expect(view.baseline.results).toEqual([
      expect.objectContaining({
        repository: 'app',
        name: 'test',
        passed: false,
        outcome: 'environment',
        reason: 'command `keel-no-such-runner` not found',
        exit_code: 127,
      }),
    ]);
    expect(view.baseline.results[0].output).toContain('keel-no-such-runner: not found');
    expect(view.error).toMatch(/^Environment problem: .*POST \/api\/tasks\/.*\/baseline/);
    // No turn was spent on it: neither the todo's prompt nor a repair prompt reached the model.
    const requests = wb.model.chatRequests;
    expect(repairAsked(requests)).toBe(false);
    expect(requests.some((request) => JSON.stringify(request.messages).includes('Do todo 1 of 1'))).toBe(
      false,
    );
    const session = (await api('GET', `/api/sessions/${ended.session_id}/status`)).body;
    expect(session.status).toBe('failed');
    expect(session.error.code).toBe('ENVIRONMENT_ERROR');

    // The user edits the check and takes the baseline again: it passes, and the task's note goes.
    await api('PUT', `/api/projects/${task.project_id}`, {
      checks: { app: [{ name: 'test', command: 'node check.js' }] },
    });
    const again = await api('POST', `/api/tasks/${task.id}/baseline`);
    expect(again.status).toBe(202);
    expect(again.body.baseline.status).toBe('running');
    const fixed = await baselineEnded(api, task.id);
    expect(fixed.baseline.results).toEqual([
      expect.objectContaining({ name: 'test', command: 'node check.js', outcome: 'passed', reason: null }),
    ]);
    expect(fixed.error).toBeNull();
    // The todo runs now, and its check passes against a baseline that passed.
    expect((await api('POST', `/api/todos/${todo.id}/execute`)).status).toBe(202);
    const done = await todoEnded(api, todo.id);
    expect(done).toMatchObject({ status: 'done', error: null, error_code: null });
    expect(done.checks).toEqual([
      expect.objectContaining({ name: 'test', outcome: 'passed', baseline: 'passed' }),
    ]);
    expect(repairAsked(wb.model.chatRequests)).toBe(false);
  });

  test('a module the change needs but nobody installed: an environment error after the turn, with no repair turn', {
    timeout: 120_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('env-module'), 'app', {
      'check.js': "if (require('node:fs').existsSync('pad.js')) require('./pad.js');\nconsole.log('ok');\n",
    });
    await using wb = await startWorkbench([
      ...planningScript(1, ['pad']),
      // The change uses a package the workspace does not have (the agent has no network to install it).
      { when: { lastMessageIncludes: 'Do todo 1 of 1' }, ...write('app/pad.js', "require('left-pad');\n") },
      { when: { lastRole: 'tool' }, text: 'Used left-pad.', repeat: true },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    await api('PUT', `/api/projects/${task.project_id}`, {
      checks: { app: [{ name: 'test', command: 'node check.js' }] },
      repair_turns: 2,
    });
    const todo = (task.todos as Body[])[0];
    await api('POST', `/api/todos/${todo.id}/execute`);
    const ended = await todoEnded(api, todo.id);
    expect(ended.status).toBe('failed');
    expect(ended.error_code).toBe('ENVIRONMENT_ERROR');
    expect(ended.checks).toEqual([
      expect.objectContaining({
        outcome: 'environment',
        reason: 'Node module `left-pad` not found',
        baseline: 'passed',
        exit_code: 1,
      }),
    ]);
    expect(ended.error).toContain('checks could not run after the change');
    expect(repairAsked(wb.model.chatRequests)).toBe(false);
    // On the task too.
    const view = (await api('GET', `/api/tasks/${task.id}`)).body;
    expect(view.error).toContain('Node module `left-pad` not found');
    expect(view.baseline.results[0]).toMatchObject({ outcome: 'passed' });
  });

  test('a test that already fails before any change: the baseline records it, the todo is done, no repair turn', {
    timeout: 120_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('baseline-failing'), 'app', {
      'known.js': "console.error('1 test failed: the date parser (known bug)');\nprocess.exit(1);\n",
      'check.js': "console.log('fine');\n",
    });
    await using wb = await startWorkbench([
      ...planningScript(1, ['greet']),
      { when: { lastMessageIncludes: 'Do todo 1 of 1' }, ...write('app/greeting.txt', 'hello\n') },
      { when: { lastRole: 'tool' }, text: 'Wrote a greeting.' },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    await api('PUT', `/api/projects/${task.project_id}`, {
      checks: {
        app: [
          { name: 'test', command: 'node known.js' },
          { name: 'lint', command: 'node check.js' },
        ],
      },
    });
    const todo = (task.todos as Body[])[0];
    await api('POST', `/api/todos/${todo.id}/execute`);
    const ended = await todoEnded(api, todo.id);
    expect(ended).toMatchObject({ status: 'done', error: null, error_code: null });
    expect(ended.checks).toEqual([
      expect.objectContaining({ name: 'test', passed: false, outcome: 'failed', baseline: 'failed' }),
      expect.objectContaining({ name: 'lint', passed: true, outcome: 'passed', baseline: 'passed' }),
    ]);
    const view = (await api('GET', `/api/tasks/${task.id}`)).body;
    expect(view.baseline.results.map((result: Body) => [result.name, result.outcome])).toEqual([
      ['test', 'failed'],
      ['lint', 'passed'],
    ]);
    expect(view.baseline.results[0].output).toContain('known bug');
    expect(view.error).toBeNull();
    expect(repairAsked(wb.model.chatRequests)).toBe(false);
    // The only todo done: the task went on to review.
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.state === 'REVIEWING',
      'REVIEWING',
    );
  });

  test('the baseline again: refused while it runs, for an unknown task; it leaves the workspace as it found it', {
    timeout: 120_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('baseline-again'), 'app', {
      // A check that leaves a file behind: the baseline must not leave it in the workspace.
      'check.js': "require('node:fs').writeFileSync('report.txt', 'checked');\n",
    });
    await using wb = await startWorkbench([...planningScript(1, ['greet'])]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    await api('PUT', `/api/projects/${task.project_id}`, {
      checks: { app: [{ name: 'test', command: 'node check.js' }] },
    });
    expect((await api('GET', `/api/tasks/${task.id}`)).body.baseline).toBeNull();
    expect((await api('POST', `/api/tasks/${task.id}/baseline`)).status).toBe(202);
    // A second one while the first runs (it holds the task from its 202 on): the task is busy with it.
    const busy = await api('POST', `/api/tasks/${task.id}/baseline`);
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({
      code: 'TASK_BUSY',
      details: { running: 'taking the checks baseline' },
    });
    const view = await baselineEnded(api, task.id);
    expect(view.baseline.results[0]).toMatchObject({ outcome: 'passed' });
    expect(existsSync(join(task.work_dir, 'app', 'report.txt'))).toBe(false);
    // Bad input: an unknown task.
    const unknown = await api('POST', '/api/tasks/task_nope/baseline');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('TASK_NOT_FOUND');
  });
});
