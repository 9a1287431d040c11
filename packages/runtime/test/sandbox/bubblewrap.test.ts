import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, findExecutable } from '../../src/sandbox/index.ts';
import { createCommandPolicy } from '../../src/tools/index.ts';
import { contextFor, runTool, tempDir } from '../tools/helpers.ts';

const bwrap = await findExecutable('bwrap', process.env.PATH ?? '');
const anything = createCommandPolicy({ allowedCommands: ['*'] });

async function sandboxed(network_mode: string) {
  const work = await tempDir();
  const sandbox = createSandbox({ enabled: true, backend: 'bubblewrap', network_mode });
  const ctx = await contextFor(work.path, {}, undefined, { commands: anything, sandbox });
  return { work, ctx };
}

/** A TCP server on loopback that answers every connection, to probe the network from inside. */
async function listening() {
  const server = createServer((socket) => socket.end('pong\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { port, [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.skipIf(bwrap === undefined)(
  `exec_command in the bubblewrap sandbox${bwrap ? '' : ' (skipped: bwrap is not installed; apt-get install bubblewrap)'}`,
  () => {
    it('writes the workdir, but nothing else on the machine', async () => {
      const { work, ctx } = await sandboxed('none');
      await using _ = work;
      // Outside /tmp, which the sandbox replaces with a private one.
      const outside = await mkdtemp('/var/tmp/keel-outside-');
      try {
        const result = await runTool(ctx, 'exec_command', {
          // Written by a program, where the command check cannot see the path: the sandbox must stop it.
          command: `echo inside > made.txt; node -e "require('fs').writeFileSync('${outside}/made.txt', 'x')"; echo $?`,
        });
        // Not even there: /var is outside the read boundary's allow-list.
        expect(result).toMatch(/no such file or directory/i);
        expect(await readFile(join(work.path, 'made.txt'), 'utf8')).toBe('inside\n');
        await expect(stat(join(outside, 'made.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
      } finally {
        await rm(outside, { recursive: true, force: true });
      }
    });

    it('has no network with network_mode "none", and the host network with "host"', async () => {
      await using server = await listening();
      const probe = `exec 3<>/dev/tcp/127.0.0.1/${server.port} && head -n 1 <&3`;
      const closed = await sandboxed('none');
      await using _closed = closed.work;
      expect(await runTool(closed.ctx, 'exec_command', { command: probe })).not.toContain('pong');
      const open = await sandboxed('host');
      await using _open = open.work;
      expect(await runTool(open.ctx, 'exec_command', { command: probe })).toBe('pong\n\nExit code: 0');
    });
  },
);

describe('sandbox configuration', () => {
  it('refuses to run a command when the sandbox is enabled but bwrap is missing', async () => {
    await using work = await tempDir();
    const sandbox = createSandbox({ enabled: true }, { searchPath: '' });
    const ctx = await contextFor(work.path, {}, undefined, { commands: anything, sandbox });
    await expect(runTool(ctx, 'exec_command', { command: 'echo hi > ran.txt' })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringContaining(
        'the sandbox is enabled (sandbox.enabled) but bubblewrap is not installed',
      ),
    });
    await expect(stat(join(work.path, 'ran.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('is off when enabled is false, and names a bad setting', () => {
    expect(createSandbox({ enabled: false, backend: 'docker' })).toBeUndefined();
    expect(() => createSandbox({ enabled: true, backend: 'firejail' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_ERROR', message: expect.stringContaining('sandbox.backend') }),
    );
    expect(() => createSandbox({ enabled: true, network_mode: 'bridge' })).toThrow(
      expect.objectContaining({
        code: 'CONFIG_ERROR',
        message: expect.stringContaining('sandbox.network_mode'),
      }),
    );
    expect(() => createSandbox({ backend: 'bubblewrap' }, { platform: 'darwin' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_ERROR', message: expect.stringContaining('needs Linux') }),
    );
  });
});
