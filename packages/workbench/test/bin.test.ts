import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import {
  apiAt,
  type Body,
  eventually,
  planningScript,
  repoWithRemote,
  taskInCoding,
  tempDir,
} from './harness.ts';

const bin = new URL('../bin/keel-workbench.js', import.meta.url).pathname;

/** Starts `keel-workbench run --port 0` and answers its base URL once it listens. */
async function startBin(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, [bin, 'run', '--port', '0'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const base = await eventually(
    () => /listening on (http:\/\/\S+)/.exec(output)?.[1],
    `the bin to listen (output: ${output})`,
    20_000,
  );
  return { child, base };
}

async function killHard(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('keel-workbench run', () => {
  test('beyond loopback it refuses to start without a key, and warns loudly when told to run open', async () => {
    const home = tempDir('bind');
    const refused = spawn(process.execPath, [bin, 'run', '--port', '0', '--host', '0.0.0.0'], {
      env: { ...process.env, WORKBENCH_HOME: home, WORKBENCH_AUTH_API_KEY: '' },
    });
    let stderr = '';
    refused.stderr.on('data', (chunk) => (stderr += chunk));
    expect(await new Promise((resolve) => refused.on('exit', resolve))).toBe(1);
    expect(stderr).toContain('Refusing to listen on 0.0.0.0 without an API key');
    expect(stderr).toContain('WORKBENCH_AUTH_API_KEY');
    const open = spawn(
      process.execPath,
      [bin, 'run', '--port', '0', '--host', '0.0.0.0', '--insecure-no-auth'],
      {
        env: { ...process.env, WORKBENCH_HOME: home, WORKBENCH_AUTH_API_KEY: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    open.stdout?.on('data', (chunk) => (output += chunk));
    open.stderr?.on('data', (chunk) => (output += chunk));
    await eventually(() => output.includes('listening on'), `the bin to listen (output: ${output})`, 20_000);
    expect(output).toContain('WARNING: the workbench is listening on 0.0.0.0 WITHOUT an API key');
    await killHard(open);
  });

  test('kill -9 mid-coding, restart, finish: the todo is retried from its before-snapshot', {
    timeout: 120_000,
  }, async () => {
    const root = tempDir('bin');
    const repo = repoWithRemote(root, 'app', { 'a.txt': 'a\n' });
    await using model = await startMockModel({
      script: [
        ...planningScript(1, ['one']),
        {
          when: { lastMessageIncludes: 'Do todo 1 of 1' },
          toolCalls: [{ name: 'write_file', arguments: { path: 'app/partial.txt', content: 'half\n' } }],
        },
        // The model never answers the tool result: the process is killed while it waits.
        { when: { lastRole: 'tool' }, text: 'never', delayMs: 120_000 },
        {
          when: { lastMessageIncludes: 'Do todo 1 of 1' },
          toolCalls: [{ name: 'write_file', arguments: { path: 'app/final.txt', content: 'whole\n' } }],
        },
        { when: { lastRole: 'tool' }, text: 'Done.' },
      ],
    });
    const env = { WORKBENCH_HOME: join(root, 'home'), RUNTIME_HOME: join(root, 'runtime') };
    let { child, base } = await startBin(env);
    try {
      let api = apiAt(base);
      expect((await api('GET', '/api/settings/check')).body.missing).toEqual(['model']);
      await api('PUT', '/api/settings', { model: 'mock-model', base_url: model.url });
      const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
      const todo = task.todos[0] as Body;
      const workspace = join(task.work_dir, 'app');
      await api('POST', `/api/todos/${todo.id}/execute`);
      await eventually(() => existsSync(join(workspace, 'partial.txt')), 'the partial write');
      // Kill once the model holds the follow-up request (its slow reply is consumed, not left for the retry).
      await eventually(
        () => model.chatRequests.some((request) => request.messages?.at(-1)?.role === 'tool'),
        'the follow-up',
      );
      const running = (await api('GET', `/api/todos/${todo.id}`)).body;
      expect(running.status).toBe('running');
      await killHard(child);

      ({ child, base } = await startBin(env));
      api = apiAt(base);
      const interrupted = (await api('GET', `/api/todos/${todo.id}`)).body;
      expect(interrupted.status).toBe('failed');
      const session = (await api('GET', `/api/sessions/${running.session_id}/status`)).body;
      expect(session).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' } });
      const logs = (await api('GET', `/api/sessions/${running.session_id}/logs?limit=1000`)).body;
      const seqs = logs.entries.map((entry: Body) => entry.seq);
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      expect(logs.entries.at(-1).event).toMatchObject({ type: 'error', error: { code: 'INTERRUPTED' } });

      expect((await api('POST', `/api/todos/${todo.id}/execute`)).status).toBe(202);
      await eventually(
        async () => (await api('GET', `/api/tasks/${task.id}`)).body.state === 'REVIEWING',
        'REVIEWING',
        30_000,
      );
      expect(existsSync(join(workspace, 'partial.txt'))).toBe(false);
      expect(existsSync(join(workspace, 'final.txt'))).toBe(true);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
