import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { type Body, eventually } from './harness.ts';

// `npm run demo:workbench`, as the README gives it.
const demo = fileURLToPath(new URL('../scripts/demo.ts', import.meta.url));

const started: ChildProcess[] = [];
const temps: string[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** The demo with a private TMPDIR, so what it leaves behind can be seen. */
async function startDemo(port: number) {
  const tmp = await mkdtemp(join(tmpdir(), 'keel-demo-test-'));
  temps.push(tmp);
  const child = spawn(process.execPath, [demo, '--port', String(port)], {
    env: { PATH: process.env.PATH ?? '', HOME: tmp, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, tmp, exited, output: () => out };
}

describe('npm run demo:workbench', () => {
  test('a task goes through the five stages against the scripted model; Ctrl-C leaves nothing behind', {
    timeout: 300_000,
  }, async () => {
    const run = await startDemo(0);
    const base = await eventually(
      () => run.output().match(/workbench demo on (http:\/\/\S+)/)?.[1],
      'the demo URL',
      120_000,
    );
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Body };
    };
    const task = async (id: string) => (await api('GET', `/api/tasks/${id}`)).body;

    const [project] = (await api('GET', '/api/projects')).body.projects as Body[];
    await eventually(
      async () => (await api('GET', `/api/projects/${project!.id}`)).body.status === 'READY',
      'knowledge',
      120_000,
    );
    const created = (
      await api('POST', '/api/tasks', { project_id: project!.id, description: 'Greet the visitor' })
    ).body;
    await eventually(async () => (await task(created.id)).init.status === 'done', 'init', 120_000);
    expect((await api('POST', `/api/tasks/${created.id}/confirm-init`)).body.state).toBe('PLANNING');
    await eventually(async () => (await task(created.id)).plan?.includes('# Plan'), 'plan', 120_000);
    const planSession = (await task(created.id)).plan_session_id;
    await eventually(
      async () => (await api('GET', `/api/sessions/${planSession}/status`)).body.busy === false,
      'plan idle',
      120_000,
    );
    expect((await api('POST', `/api/tasks/${created.id}/lock-plan`)).status).toBe(202);
    const ready = await eventually(
      async () => {
        const body = await task(created.id);
        return body.state === 'TODO_READY' && body;
      },
      'todos',
      120_000,
    );
    expect(ready.todos.map((todo: Body) => todo.title)).toEqual([
      'Greeting in the frontend',
      'Greeting in the backend',
    ]);
    expect((await api('POST', `/api/tasks/${created.id}/start-coding`)).body.state).toBe('CODING');
    for (const todo of ready.todos as Body[]) {
      expect((await api('POST', `/api/todos/${todo.id}/execute`)).status).toBe(202);
      const ended = await eventually(
        async () => {
          const body = (await api('GET', `/api/todos/${todo.id}`)).body;
          return ['done', 'failed'].includes(body.status) && body;
        },
        `todo ${todo.position}`,
        120_000,
      );
      expect(ended.status, JSON.stringify(ended.error ?? ended)).toBe('done');
    }
    await eventually(
      async () => (await task(created.id)).commit_message?.startsWith('feat:'),
      'review',
      120_000,
    );
    const submitted = await api('POST', `/api/tasks/${created.id}/submit-mr`);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.state).toBe('DONE');
    // The branch reached the demo's bare origin with the change.
    const root = run.output().match(/repositories in (\S+)/)![1]!;
    const shown = execFileSync('git', ['show', `${created.branch}:src/greeting.js`], {
      cwd: join(root, 'frontend.git'),
      encoding: 'utf8',
    });
    expect(shown).toContain('greeting');

    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(await readdir(run.tmp)).toEqual([]);
  });

  test('a start that fails (the port is taken) says so, exits 1 and leaves nothing behind', {
    timeout: 120_000,
  }, async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    try {
      const { port } = taken.address() as { port: number };
      const run = await startDemo(port);
      expect(await run.exited).toBe(1);
      expect(run.output()).toContain('The workbench demo could not start');
      expect(await readdir(run.tmp)).toEqual([]);
    } finally {
      taken.close();
    }
  });
});
