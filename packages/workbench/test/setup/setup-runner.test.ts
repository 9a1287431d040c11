// Issue #37, the setup's confinement through the real bubblewrap sandbox: the network is on for the setup
// command only (a check in the same workspace has none), the package manager's cache is a writable root of
// that command only, and the rest of the agent's confinement holds: the read boundary hides WORKBENCH_HOME,
// the protected paths (.git) stay read-only, the block list still refuses.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runtimeCommandRunner } from '../../src/checks/index.ts';
import { runtimeSetupRunner } from '../../src/setup/index.ts';
import { tempDir } from '../harness.ts';
import { npmRepository } from './npm-fixture.ts';

const hasBwrap = existsSync('/usr/bin/bwrap');

/** A workbench home with a secret, a workspace inside it (as tasks' are), and both runners over them. */
function world() {
  const home = tempDir('setup-home');
  writeFileSync(join(home, 'secrets.json'), '{"api_key":"sk-secret"}');
  const workspace = join(home, 'tasks', 'task_x', 'app');
  mkdirSync(workspace, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: workspace });
  const options = {
    runtimeDir: tempDir('setup-runtime'),
    hiddenPaths: [home],
    trustProjectConfig: (() => false) as () => boolean,
  };
  return {
    home,
    workspace,
    cacheDir: join(home, 'caches'),
    setup: runtimeSetupRunner({ ...options, cacheDir: join(home, 'caches') }),
    check: runtimeCommandRunner({ ...options, env: process.env }),
  };
}

describe.skipIf(!hasBwrap)('the setup command in the sandbox', () => {
  test('reaches the network, where a check in the same workspace cannot', { timeout: 60_000 }, async () => {
    const server = createServer((socket) => socket.end('hello\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const { workspace, setup, check } = world();
      writeFileSync(
        join(workspace, 'connect.js'),
        `require('node:net').connect(${port}, '127.0.0.1')
          .on('data', (d) => { console.log('reached: ' + d); process.exit(0); })
          .on('error', (e) => { console.log('unreachable: ' + e.code); process.exit(3); });\n`,
      );
      const connect = 'node connect.js';
      const installed = await setup.run(workspace, connect, 20_000);
      expect(installed).toMatchObject({ exitCode: 0, output: expect.stringContaining('reached: hello') });
      const checked = await check.run(workspace, connect, 20_000);
      expect(checked).toMatchObject({ exitCode: 3, output: expect.stringContaining('unreachable') });
    } finally {
      server.close();
    }
  });

  test("installs with npm ci from the lockfile, into the workspace, with the workbench's npm cache", {
    timeout: 90_000,
  }, async () => {
    const { cacheDir, setup } = world();
    const repo = npmRepository(tempDir('setup-npm'));
    const result = await setup.run(repo.dir, 'npm ci --no-audit --no-fund', 60_000);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toContain('added 1 package');
    expect(existsSync(join(repo.dir, 'node_modules', 'tiny', 'bin.js'))).toBe(true);
    expect(existsSync(join(repo.dir, 'node_modules', '.bin', 'tiny-test'))).toBe(true);
    // The download cache is the workbench's, written through the command's own writable root.
    expect(readdirSync(join(cacheDir, 'npm'))).toContain('_cacache');
  });

  test('keeps the read boundary, the protected paths and the block list', { timeout: 60_000 }, async () => {
    const { home, workspace, setup } = world();
    const secret = await setup.run(workspace, `cat ${join(home, 'secrets.json')}`, 20_000);
    expect(secret.exitCode).not.toBe(0);
    expect(secret.output).not.toContain('sk-secret');
    const hook = await setup.run(workspace, 'echo "touch /tmp/x" > .git/hooks/post-checkout', 20_000);
    expect(hook.exitCode).not.toBe(0);
    expect(existsSync(join(workspace, '.git', 'hooks', 'post-checkout'))).toBe(false);
    const wipe = await setup.run(workspace, 'rm -rf /', 20_000);
    expect(wipe).toMatchObject({ exitCode: null, output: expect.stringContaining('block list') });
    // A cache of a manager the command does not name is no root of it: its writes stay in the sandbox.
    const other = join(home, 'caches', 'pip');
    mkdirSync(other, { recursive: true });
    await setup.run(workspace, `npm --version && touch ${join(other, 'planted')}`, 20_000);
    expect(existsSync(join(other, 'planted'))).toBe(false);
  });
});
