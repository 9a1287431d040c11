// Issue #26, checks per repository: found by a scan when the project is created, editable, run in the
// sandbox after each todo that changed the repository, their results on the todo; a failing check sends
// its output back to the todo's own session for at most `repair_turns` turns, then the todo is failed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathWithout } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import {
  type Body,
  eventually,
  knowledgeScript,
  planningScript,
  repoWithRemote,
  startWorkbench,
  taskInCoding,
  tempDir,
  todoEnded,
} from '../harness.ts';

// The repository's test: passes with no greeting.txt (the baseline) or one that says hello.
const checkScript = `const fs = require('node:fs');
const text = fs.existsSync('greeting.txt') ? fs.readFileSync('greeting.txt', 'utf8') : 'hello';
if (!text.includes('hello')) { console.error('greeting.txt does not say hello: ' + JSON.stringify(text)); process.exit(1); }
console.log('greeting ok');
`;

const write = (content: string) => ({
  toolCalls: [{ name: 'write_file', arguments: { path: 'app/greeting.txt', content } }],
});

describe('checks after each todo', () => {
  test('found on creation; a failing test is repaired within the bound, and the todo is done with its results', {
    timeout: 90_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('checks'), 'app', {
      'package.json': JSON.stringify({ name: 'app', scripts: { test: 'node check.js', lint: 'echo lint' } }),
      'check.js': checkScript,
    });
    await using wb = await startWorkbench([
      ...planningScript(1, ['greet']),
      { when: { lastMessageIncludes: 'Do todo 1 of 1' }, ...write('bye\n') },
      { when: { lastMessageIncludes: 'Created app/greeting.txt' }, text: 'Wrote a greeting.' },
      { when: { lastMessageIncludes: 'greeting.txt does not say hello' }, ...write('hello\n') },
      { when: { lastMessageIncludes: 'Overwrote app/greeting.txt' }, text: 'Fixed it.' },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    const project = (await api('GET', `/api/projects/${task.project_id}`)).body;
    // A real scan of package.json found the scripts.
    expect(project.repositories[0].checks).toEqual([
      { name: 'test', command: 'npm test', timeout_ms: 600_000 },
      { name: 'lint', command: 'npm run lint', timeout_ms: 600_000 },
    ]);
    expect(project.repair_turns).toBe(2);
    // Edited: the test alone, run with node directly.
    const edited = await api('PUT', `/api/projects/${task.project_id}`, {
      checks: { app: [{ name: 'test', command: 'node check.js' }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.repositories[0].checks).toEqual([
      { name: 'test', command: 'node check.js', timeout_ms: 600_000 },
    ]);

    const todo = (task.todos as Body[])[0];
    expect((await api('POST', `/api/todos/${todo.id}/execute`)).status).toBe(202);
    const ended = await todoEnded(api, todo.id);
    expect(ended.status).toBe('done');
    expect(ended.checks).toEqual([
      {
        repository: 'app',
        name: 'test',
        command: 'node check.js',
        passed: true,
        outcome: 'passed',
        reason: null,
        baseline: 'passed',
        exit_code: 0,
        duration_ms: expect.any(Number),
        output: expect.stringContaining('greeting ok'),
      },
    ]);
    // Both runs are kept: the failure the repair fixed stays readable (issue #38, point 3).
    expect(ended.check_runs).toMatchObject([
      { repair: 0, passed: false, results: [{ outcome: 'failed', exit_code: 1 }] },
      { repair: 1, passed: true, results: [{ outcome: 'passed', exit_code: 0 }] },
    ]);
    expect(ended.check_runs[0].results[0].output).toContain('greeting.txt does not say hello');
    // The repair turn got the failing output, in the todo's own session. The log tells it as a timeline of
    // the workbench's steps (checks failed → repair 1 of 2 → checks passed), not as a message of the user's.
    const logs = (await api('GET', `/api/sessions/${ended.session_id}/logs?limit=1000`)).body
      .entries as Body[];
    const users = logs.filter((entry) => entry.event.type === 'message' && entry.event.role === 'user');
    expect(users.map((entry) => entry.event.content)).toEqual(['Todo 1: greet']);
    const steps = logs.filter((entry) => entry.event.type === 'step').map((entry) => entry.event);
    expect(steps).toEqual([
      { type: 'step', step: 'checks', status: 'failed', detail: 'test failed' },
      { type: 'step', step: 'repair', status: 'done', detail: 'Repair 1 of 2: test failed' },
      { type: 'step', step: 'checks', status: 'done', detail: 'test passed' },
    ]);
    const repairRequest = wb.model.chatRequests.find((request) =>
      JSON.stringify(request.messages).includes('Fix the code so that they pass'),
    );
    expect(JSON.stringify(repairRequest?.messages)).toContain('greeting.txt does not say hello');
  });

  test('checks that still fail after the repair turns leave the todo failed, with their output', {
    timeout: 90_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('checks-fail'), 'app', { 'check.js': checkScript });
    await using wb = await startWorkbench([
      ...planningScript(1, ['greet']),
      { when: { lastMessageIncludes: 'Do todo 1 of 1' }, ...write('bye\n') },
      { when: { lastRole: 'tool' }, text: 'Done.', repeat: true },
      { when: { lastMessageIncludes: 'greeting.txt does not say hello' }, ...write('still bye\n') },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    expect((await api('GET', `/api/projects/${task.project_id}`)).body.repositories[0].checks).toEqual([]);
    await api('PUT', `/api/projects/${task.project_id}`, {
      checks: { app: [{ name: 'test', command: 'node check.js' }] },
      repair_turns: 1,
    });
    const todo = (task.todos as Body[])[0];
    await api('POST', `/api/todos/${todo.id}/execute`);
    const ended = await todoEnded(api, todo.id);
    expect(ended.status).toBe('failed');
    expect(ended.error).toContain(
      'Checks failed after the repair turns: app: test (`node check.js`, exit code 1)',
    );
    expect(ended.error_code).toBe('CHECKS_FAILED');
    expect(ended.checks[0]).toMatchObject({
      passed: false,
      outcome: 'failed',
      baseline: 'passed',
      exit_code: 1,
    });
    expect(ended.checks[0].output).toContain('does not say hello: "still bye\\n"');
    // Bad input: a check of a repository the project does not have.
    const unknown = await api('PUT', `/api/projects/${task.project_id}`, { checks: { nope: [] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("no repository 'nope'");
  });
  test('with no sandbox backend, a check that does more than read is refused, not run unconfined', {
    timeout: 90_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('checks-nosandbox'), 'app', {
      'mark.js': "require('node:fs').writeFileSync('marker.txt', 'ran');\n",
    });
    await using wb = await startWorkbench([
      ...planningScript(1, ['greet']),
      { when: { lastMessageIncludes: 'Do todo 1 of 1' }, ...write('hello\n') },
      { when: { lastRole: 'tool' }, text: 'Done.' },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    await api('PUT', `/api/projects/${task.project_id}`, {
      checks: { app: [{ name: 'test', command: 'node mark.js' }] },
      repair_turns: 0,
    });
    // This process's PATH without bwrap: the runtime finds no sandbox backend.
    const path = process.env.PATH;
    process.env.PATH = await pathWithout(['bwrap'], tempDir('no-bwrap'));
    try {
      const todo = (task.todos as Body[])[0];
      await api('POST', `/api/todos/${todo.id}/execute`);
      const ended = await todoEnded(api, todo.id);
      expect(ended.status).toBe('failed');
      // Refused in the baseline already, before any change: an environment problem, and no turn is spent.
      expect(ended.error_code).toBe('ENVIRONMENT_ERROR');
      const baseline = (await api('GET', `/api/tasks/${task.id}`)).body.baseline;
      expect(baseline.results[0]).toMatchObject({ passed: false, outcome: 'environment', exit_code: null });
      expect(baseline.results[0].reason).toMatch(/no sandbox/i);
      expect(baseline.results[0].output).toMatch(/no sandbox/i);
      expect(existsSync(join(task.work_dir, 'app', 'marker.txt'))).toBe(false);
    } finally {
      process.env.PATH = path;
    }
  });
  test('a project from before checks existed gets them found when its knowledge is generated again', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('checks-older'), 'app', {
      'go.mod': 'module example.com/app\n\ngo 1.22\n',
    });
    // Knowledge twice: on creation, and generated again.
    await using wb = await startWorkbench([...knowledgeScript(1), ...knowledgeScript(1)]);
    const { api } = wb;
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'backend' }] })
    ).body;
    await eventually(
      async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
      'READY',
    );
    // As an older version stored it: no checks at all.
    const projects = wb.workbench.services.tasks.projects;
    const stored = await projects.get(project.id);
    await projects.update(project.id, {
      repositories: stored.repositories.map(({ checks: _checks, ...repository }) => repository),
    });
    expect((await api('GET', `/api/projects/${project.id}`)).body.repositories[0].checks).toBeUndefined();
    expect((await api('POST', `/api/projects/${project.id}/init`)).status).toBe(202);
    await eventually(async () => {
      const now = (await api('GET', `/api/projects/${project.id}`)).body;
      return now.status === 'READY' && now.repositories[0].checks !== undefined;
    }, 'the checks found');
    expect((await api('GET', `/api/projects/${project.id}`)).body.repositories[0].checks).toEqual([
      { name: 'test', command: 'go test ./...', timeout_ms: 600_000 },
      { name: 'lint', command: 'go vet ./...', timeout_ms: 600_000 },
      { name: 'build', command: 'go build ./...', timeout_ms: 600_000 },
    ]);
  });
});
