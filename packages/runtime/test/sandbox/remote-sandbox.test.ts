// The remote backend end to end: exec_command runs the client program, which syncs the workdir to the
// reference server, runs the command there and brings the changes back.
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually, type RemoteSandboxServer, startRemoteSandboxServer } from '@keel/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { KeelError } from '../../src/errors/index.ts';
import { createSandbox, type SandboxSettings, sandboxStatus } from '../../src/sandbox/index.ts';
import { createCommandPolicy } from '../../src/tools/index.ts';
import { contextFor, runTool, type TempDir, tempDir, writeFiles } from '../tools/helpers.ts';

const anything = createCommandPolicy({ allowedCommands: ['*'] });
// Where the client remembers each workdir's sandbox: this file's own, removed at the end.
const state = await tempDir('keel-remote-state-');
afterAll(() => state[Symbol.asyncDispose]());

async function remoteContext(
  server: RemoteSandboxServer,
  work: TempDir,
  remote: SandboxSettings['remote'] = {},
  env: NodeJS.ProcessEnv = {},
) {
  const sandbox = createSandbox(
    { backend: 'remote', remote: { url: server.url, ...remote } },
    { env, remoteStateDir: state.path },
  );
  return contextFor(work.path, {}, undefined, { commands: anything, sandbox });
}

/** The sandbox's workdir on this machine (the reference server keeps it here). */
function remoteDir(server: RemoteSandboxServer): string {
  const [sandbox, ...others] = server.sandboxes();
  expect(others).toEqual([]);
  return (sandbox as { workdir: string }).workdir;
}

const puts = (server: RemoteSandboxServer) =>
  server.requests
    .filter((request) => request.method === 'PUT')
    .map((request) => request.path.replace(/^.*\/files\//, ''));

describe('the remote sandbox backend', () => {
  it('is chosen only when named, needs a URL, and says where commands run', () => {
    expect(
      sandboxStatus({ backend: 'remote', remote: { url: 'https://user:pw@sandbox.example/keel' } }),
    ).toMatchObject({
      active: true,
      backend: 'remote',
      network: 'none',
      reason: expect.stringContaining('remote sandbox at https://sandbox.example/keel'),
    });
    expect(sandboxStatus({ backend: 'remote', remote: { url: 'http://x.test' } }).reason).not.toContain('pw');
    expect(
      sandboxStatus(
        { backend: 'remote', remote: { url: 'http://x.test', token_env: 'MY_TOKEN' } },
        { env: {} },
      ).reason,
    ).toContain('MY_TOKEN is not set');
    let thrown: unknown;
    try {
      createSandbox({ backend: 'remote' });
    } catch (error) {
      thrown = error;
    }
    expect(KeelError.is(thrown) && thrown.code).toBe('CONFIG_ERROR');
    expect((thrown as KeelError).details).toEqual({ option: 'sandbox.remote.url' });
    expect(sandboxStatus(undefined, { platform: 'linux', searchPath: '' }).backend).not.toBe('remote');
  });

  it('runs a command remotely: the workdir goes up, output and exit code come back, and so do its changes', async () => {
    await using server = await startRemoteSandboxServer();
    await using work = await tempDir();
    await writeFiles(work.path, {
      'a.txt': 'alpha\n',
      'gone.txt': 'bye\n',
      'sub/keep.txt': 'k\n',
      '.git/HEAD': 'x',
    });
    await chmod(join(work.path, 'a.txt'), 0o644);
    const ctx = await remoteContext(server, work);

    const result = await runTool(ctx, 'exec_command', {
      command:
        'echo "in $(basename "$(dirname "$PWD")")"; cat a.txt; ls -a; echo made > sub/new.txt; mkdir -p out/deep; ' +
        'printf "#!/bin/sh\\necho hi\\n" > out/deep/run.sh; chmod +x out/deep/run.sh; rm gone.txt; echo warn >&2; exit 7',
    });
    // The reference server keeps each sandbox in sbx_*/work: the command ran there, not here.
    expect(result).toMatch(/^in sbx_[0-9a-f]+\nalpha\n/);
    expect(result).not.toContain('.git');
    expect(result).toContain('warn');
    expect(result).toMatch(/Exit code: 7$/);
    expect(await readFile(join(work.path, 'sub/new.txt'), 'utf8')).toBe('made\n');
    expect((await stat(join(work.path, 'out/deep/run.sh'))).mode & 0o111).not.toBe(0);
    await expect(stat(join(work.path, 'gone.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(join(work.path, '.git/HEAD'), 'utf8')).toBe('x');

    // The next command reuses the sandbox and uploads only what changed here.
    const before = server.requests.length;
    await writeFile(join(work.path, 'a.txt'), 'beta\n');
    expect(await runTool(ctx, 'exec_command', { command: 'cat a.txt sub/new.txt' })).toBe(
      'beta\nmade\n\nExit code: 0',
    );
    expect(
      server.requests
        .slice(before)
        .filter((request) => request.method === 'POST')
        .map((r) => r.path),
    ).toEqual([expect.stringMatching(/\/exec$/)]);
    expect(puts(server).slice(-1)).toEqual(['a.txt']);
    expect(server.sandboxes()).toHaveLength(1);

    // A command in a subdirectory runs in the same directory remotely.
    expect(await runTool(ctx, 'exec_command', { command: 'ls', cwd: 'sub' })).toBe(
      'keep.txt\nnew.txt\n\nExit code: 0',
    );
  });

  it('starts a new sandbox when the provider dropped the old one', async () => {
    await using server = await startRemoteSandboxServer();
    await using work = await tempDir();
    await writeFiles(work.path, { 'a.txt': 'one\n' });
    const ctx = await remoteContext(server, work);
    expect(await runTool(ctx, 'exec_command', { command: 'cat a.txt' })).toBe('one\n\nExit code: 0');
    const [first] = server.sandboxes();
    await fetch(`${server.url}/v1/sandboxes/${first?.id}`, { method: 'DELETE' });
    expect(await runTool(ctx, 'exec_command', { command: 'cat a.txt' })).toBe('one\n\nExit code: 0');
    expect(server.sandboxes().map((sandbox) => sandbox.id)).not.toContain(first?.id);
  });

  it('keeps excluded names out both ways', async () => {
    await using server = await startRemoteSandboxServer();
    await using work = await tempDir();
    await writeFiles(work.path, { 'node_modules/local.js': 'here', 'index.js': 'x' });
    const ctx = await remoteContext(server, work, { exclude: ['node_modules'] });
    const result = await runTool(ctx, 'exec_command', {
      command: 'ls node_modules 2>&1; mkdir -p node_modules && echo remote > node_modules/remote.js; ls',
    });
    expect(result).toContain('No such file');
    expect(puts(server)).toEqual(['index.js']);
    await expect(stat(join(work.path, 'node_modules/remote.js'))).rejects.toMatchObject({ code: 'ENOENT' });
    // Not deleted remotely either, though it is not here: the sandbox keeps its own.
    expect(await runTool(ctx, 'exec_command', { command: 'cat node_modules/remote.js' })).toBe(
      'remote\n\nExit code: 0',
    );
  });

  it('sends the token to the provider but never to the command; a wrong token is a clear failure', async () => {
    await using server = await startRemoteSandboxServer({ token: 's3cret' });
    await using work = await tempDir();
    const ok = await remoteContext(server, work, { token_env: 'SANDBOX_TOKEN' }, { SANDBOX_TOKEN: 's3cret' });
    expect(await runTool(ok, 'exec_command', { command: 'env | grep -c s3cret; true' })).toBe(
      '0\n\nExit code: 0',
    );

    const wrong = await remoteContext(
      server,
      work,
      { token_env: 'SANDBOX_TOKEN' },
      { SANDBOX_TOKEN: 'nope' },
    );
    const refused = await runTool(wrong, 'exec_command', { command: 'echo ran > ran.txt' });
    expect(refused).toMatch(/keel remote sandbox: .*answered 401: Missing or invalid token/);
    expect(refused).toMatch(/Exit code: 125$/);
    await expect(stat(join(work.path, 'ran.txt'))).rejects.toMatchObject({ code: 'ENOENT' });

    const unset = await remoteContext(server, work, { token_env: 'SANDBOX_TOKEN' }, {});
    await expect(runTool(unset, 'exec_command', { command: 'true' })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringContaining('SANDBOX_TOKEN, which is not set'),
    });
  });

  it('says so when the provider cannot be reached', async () => {
    await using work = await tempDir();
    // A port nothing listens on any more.
    const gone = await startRemoteSandboxServer();
    await gone.close();
    const ctx = await remoteContext(gone, work);
    const result = await runTool(ctx, 'exec_command', { command: 'true' });
    expect(result).toContain(`keel remote sandbox: cannot reach ${gone.url}/v1/sandboxes: ECONNREFUSED`);
    expect(result).toMatch(/Exit code: 125$/);
  });

  it('stops the remote command on a timeout, and brings nothing back from it', async () => {
    await using server = await startRemoteSandboxServer();
    await using work = await tempDir();
    const ctx = await remoteContext(server, work);
    await expect(
      runTool(ctx, 'exec_command', {
        command: 'echo partial > partial.txt; echo started; sleep 30',
        timeout_ms: 1000,
      }),
    ).rejects.toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('started') });
    await eventually(() => server.running() === 0, { what: 'the remote command to be stopped' });
    await expect(stat(join(work.path, 'partial.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    // The next command starts from this workdir again: what the stopped one left is gone there too.
    expect(await runTool(ctx, 'exec_command', { command: 'ls' })).toBe('(no output)\n\nExit code: 0');
  });

  it('keeps a local file that changed while the remote command ran', async () => {
    await using server = await startRemoteSandboxServer();
    await using work = await tempDir();
    await writeFiles(work.path, { 'a.txt': 'original\n' });
    const ctx = await remoteContext(server, work);
    const running = runTool(ctx, 'exec_command', {
      command: 'echo remote > a.txt; echo other > b.txt; while [ ! -e go ]; do sleep 0.02; done',
    });
    await eventually(
      async () => (await readFile(join(remoteDir(server), 'a.txt'), 'utf8').catch(() => '')) === 'remote\n',
    );
    await writeFile(join(work.path, 'a.txt'), 'edited here\n');
    await mkdir(join(remoteDir(server), 'go'));
    const result = await running;
    expect(result).toContain('kept the local a.txt: it changed here while the command ran');
    expect(await readFile(join(work.path, 'a.txt'), 'utf8')).toBe('edited here\n');
    expect(await readFile(join(work.path, 'b.txt'), 'utf8')).toBe('other\n');
  });
});
