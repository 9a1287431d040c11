// Issue #40, item 3: the workbench logs what it does and what fails in the background (stderr and
// {WORKBENCH_HOME}/logs/workbench.log), at the level `--log-level` or WORKBENCH_LOG_LEVEL asks for.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServiceLog } from '@keel/service';
import { startMockModel } from '@keel/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import {
  apiAt,
  type Body,
  eventually,
  planningScript,
  repoWithRemote,
  startWorkbench,
  taskInCoding,
  tempDir,
  todoEnded,
} from '../harness.ts';

const bin = new URL('../../bin/keel-workbench.js', import.meta.url).pathname;

/** The JSON lines of a log (a piped stderr or the log file). */
const jsonLines = (text: string): Body[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

const readLog = (path: string) => (existsSync(path) ? jsonLines(readFileSync(path, 'utf8')) : []);

/** `keel-workbench run …` with stdout and stderr collected apart (stderr is a pipe: JSON lines). */
function run(args: string[], env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, [bin, 'run', ...args], {
    env: { ...process.env, WORKBENCH_LOG_LEVEL: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk) => (out.stdout += chunk));
  child.stderr?.on('data', (chunk) => (out.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  started.add(child);
  void exited.then(() => started.delete(child));
  return { child, out, exited };
}

// A test that fails before it stops its service leaves none running.
const started = new Set<ChildProcess>();
afterEach(() => {
  for (const child of started) child.kill('SIGKILL');
});

async function listening(started: ReturnType<typeof run>): Promise<string> {
  return eventually(
    () => /listening on (http:\/\/\S+)/.exec(started.out.stdout)?.[1],
    `the workbench to listen (stderr: ${started.out.stderr})`,
    20_000,
  );
}

async function stop(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
  child.kill('SIGTERM');
  return exited;
}

describe('the workbench service log', () => {
  test('a knowledge layer that fails is one line naming the project, repository and layer: on stderr (JSON on a pipe) and in logs/workbench.log; start and stop are logged', {
    timeout: 60_000,
  }, async () => {
    const root = tempDir('log-knowledge');
    const repo = repoWithRemote(root, 'api', { 'index.js': 'export {};\n' });
    await using model = await startMockModel({
      script: [
        {
          when: { lastMessageIncludes: 'Describe the STRUCTURE' },
          error: { status: 400, message: 'the model refused the structure' },
        },
        { when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' }, text: '# Flow' },
        { when: { lastMessageIncludes: 'Describe the MODULES' }, text: '# Modules' },
        { when: { lastMessageIncludes: 'Write a short INDEX' }, text: '# Index' },
      ],
    });
    const home = join(root, 'home');
    const service = run(['--port', '0'], { WORKBENCH_HOME: home, RUNTIME_HOME: join(root, 'runtime') });
    const file = join(home, 'logs', 'workbench.log');
    try {
      const base = await listening(service);
      const started = await eventually(
        () => jsonLines(service.out.stderr).find((line) => line.msg === 'started'),
        'the start line',
      );
      expect(started).toMatchObject({ level: 'info', url: base, home, log_file: file });
      const api = apiAt(base);
      await api('PUT', '/api/settings', { model: 'mock-model', base_url: model.url });
      const project = (
        await api('POST', '/api/projects', {
          name: 'Shop',
          repositories: [{ path: repo.dir, type: 'backend' }],
        })
      ).body;
      const failed = (lines: Body[]) => lines.filter((line) => line.msg === 'knowledge layer failed');
      await eventually(
        () => jsonLines(service.out.stderr).some((line) => line.msg === 'project failed'),
        `the project's failure on stderr (${service.out.stderr})`,
      );
      const expected = {
        time: expect.any(String),
        level: 'warn',
        msg: 'knowledge layer failed',
        project: project.id,
        repository: 'api',
        layer: 'structure',
        error: expect.stringContaining('the model refused the structure'),
      };
      expect(failed(jsonLines(service.out.stderr))).toEqual([expected]);
      // The file is written just after stderr: wait for the same line there.
      await eventually(
        () => readLog(file).some((line) => line.msg === 'project failed'),
        "the project's failure in the log file",
      );
      expect(failed(readLog(file))).toEqual([expected]);
      expect(readLog(file).find((line) => line.msg === 'project failed')).toMatchObject({
        project: project.id,
        error: expect.stringContaining('api/structure'),
      });
    } finally {
      expect(await stop(service.child, service.exited)).toBe(0);
    }
    expect(
      readLog(file)
        .map((line) => line.msg)
        .slice(-2),
    ).toEqual(['stopping', 'stopped']);
  });

  test('--log-level error (or WORKBENCH_LOG_LEVEL=error) leaves the info lines out', {
    timeout: 60_000,
  }, async () => {
    for (const [args, env] of [
      [['--log-level', 'error'], {}],
      [[], { WORKBENCH_LOG_LEVEL: 'error' }],
      // The flag wins over the variable.
      [['--log-level', 'error'], { WORKBENCH_LOG_LEVEL: 'debug' }],
    ] as const) {
      const home = join(tempDir('log-level'), 'home');
      const service = run(['--port', '0', ...args], { WORKBENCH_HOME: home, ...env });
      await listening(service);
      expect(await stop(service.child, service.exited)).toBe(0);
      expect(jsonLines(service.out.stderr), JSON.stringify(args)).toEqual([]);
      expect(readLog(join(home, 'logs', 'workbench.log'))).toEqual([]);
    }
    // The same start at the default level logs it.
    const home = join(tempDir('log-level'), 'home');
    const service = run(['--port', '0'], { WORKBENCH_HOME: home });
    await listening(service);
    expect(await stop(service.child, service.exited)).toBe(0);
    expect(jsonLines(service.out.stderr).map((line) => line.msg)).toEqual(['started', 'stopping', 'stopped']);
  });

  test('a level that is not one is refused, naming the allowed ones, before anything starts', async () => {
    for (const [args, env, named] of [
      [['--log-level', 'verbose'], {}, "argument 'verbose' is invalid"],
      [[], { WORKBENCH_LOG_LEVEL: 'loud' }, "value 'loud' from env 'WORKBENCH_LOG_LEVEL' is invalid"],
    ] as const) {
      const home = join(tempDir('log-bad'), 'home');
      const service = run(['--port', '0', ...args], { WORKBENCH_HOME: home, ...env });
      expect(await service.exited).toBe(1);
      expect(service.out.stderr).toContain(named);
      expect(service.out.stderr).toContain('Allowed choices are error, warn, info, debug.');
      expect(existsSync(home)).toBe(false);
    }
  });

  test('a todo that fails is logged with its error code and the ids of its project, task, todo and session', {
    timeout: 120_000,
  }, async () => {
    const root = tempDir('log-todo');
    const repo = repoWithRemote(root, 'app', {
      'package.json': JSON.stringify({ name: 'app', scripts: { test: 'keel-no-such-runner run' } }),
    });
    const file = join(root, 'logs', 'workbench.log');
    const stderr = { text: '', write: (chunk: string) => (stderr.text += chunk) };
    const serviceLog = createServiceLog({ file, stderr });
    await using wb = await startWorkbench(planningScript(1, ['greet']), { workbench: { serviceLog } });
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    await api('PUT', `/api/projects/${task.project_id}`, {
      checks: { app: [{ name: 'test', command: 'npm test' }] },
    });
    const todo = (task.todos as Body[])[0];
    await api('POST', `/api/todos/${todo.id}/execute`);
    const ended = await todoEnded(api, todo.id);
    expect(ended).toMatchObject({ status: 'failed', error_code: 'ENVIRONMENT_ERROR' });
    const line = await eventually(
      () => readLog(file).find((each) => each.msg === 'todo failed'),
      'the todo failure in the log file',
    );
    expect(line).toEqual({
      time: expect.any(String),
      level: 'warn',
      msg: 'todo failed',
      project: task.project_id,
      task: task.id,
      todo: todo.id,
      session: ended.session_id,
      error_code: 'ENVIRONMENT_ERROR',
      error: ended.error,
    });
    expect(jsonLines(stderr.text).filter((each) => each.msg === 'todo failed')).toEqual([line]);
    // The task's note about it too, once.
    expect(readLog(file).filter((each) => each.msg === 'task error')).toEqual([
      expect.objectContaining({ task: task.id, error: expect.stringMatching(/^Environment problem: /) }),
    ]);
  });
});
