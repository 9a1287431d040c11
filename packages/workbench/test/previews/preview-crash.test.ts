// Issue #37: a preview never outlives the service, not even one killed with SIGKILL (no close runs): the
// sandbox dies with its parent (bubblewrap's --die-with-parent), and everything in it with the sandbox.
// The service runs from source in a child process, killed hard; the preview's processes are checked by pid.
import { spawn } from 'node:child_process';
import { startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { apiAt, eventually, knowledgeScript, tempDir } from '../harness.ts';
import { gone, hasBwrap, processesOf, serverRepository, taskWithWorkspace } from './preview-fixture.ts';

const main = new URL('../../src/main.ts', import.meta.url).pathname;

describe.skipIf(!hasBwrap)('a preview of a service killed hard', () => {
  test('goes with it: no process of the preview is left', { timeout: 120_000 }, async () => {
    const repo = serverRepository(tempDir('preview-crash'));
    await using model = await startMockModel({ script: knowledgeScript(1) });
    const home = tempDir('crash-home');
    // Node 24 runs the TypeScript sources as they are (the `@keel/source` condition picks them).
    const service = spawn(
      process.execPath,
      [
        '--conditions=@keel/source',
        '-e',
        `import(${JSON.stringify(main)}).then(async (m) => { process.exitCode = await m.main(['node', 'keel-workbench', 'run', '--port', '0']); })`,
      ],
      {
        env: { ...process.env, WORKBENCH_HOME: home, RUNTIME_HOME: `${home}/runtime` },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise((resolve) => service.once('exit', resolve));
    try {
      let output = '';
      service.stdout.on('data', (chunk) => (output += chunk));
      service.stderr.on('data', (chunk) => (output += chunk));
      const base = await eventually(
        () => /listening on (http:\/\/\S+)/.exec(output)?.[1],
        'the service to listen',
        30_000,
      );
      const api = apiAt(base);
      await api('PUT', '/api/settings', { model: 'mock-model', base_url: model.url, api_key: 'sk-test' });
      const { task } = await taskWithWorkspace(api, repo.dir);
      await api('POST', `/api/tasks/${task.id}/previews`, { repository: 'app' });
      const running = await eventually(
        async () => {
          const [preview] = (await api('GET', `/api/tasks/${task.id}/previews`)).body.previews;
          return preview.state === 'running' && preview;
        },
        'the preview to answer',
        30_000,
      );
      expect(await (await fetch(running.url)).text()).toBe('hello from the preview');
      const { all } = processesOf(running.pid, 'server.js');

      service.kill('SIGKILL');
      await exited;
      await eventually(() => all.every(gone), 'every process of the preview to be gone', 5000);
      await expect(fetch(running.url)).rejects.toThrow();
    } finally {
      service.kill('SIGKILL');
      await exited;
    }
  });
});
