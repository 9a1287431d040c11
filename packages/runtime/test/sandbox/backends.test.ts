import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeelError } from '../../src/errors/index.ts';
import {
  ContainerSandbox,
  createSandbox,
  findExecutable,
  SeatbeltSandbox,
  sandboxStatus,
  seatbeltProfile,
} from '../../src/sandbox/index.ts';
import { createCommandPolicy } from '../../src/tools/index.ts';
import { contextFor, runTool, tempDir } from '../tools/helpers.ts';

const docker = await findExecutable('docker', process.env.PATH ?? '');

/** A directory holding executables named `names` that do nothing: "this machine has them". */
async function fakeBin(names: string[], script = '#!/bin/sh\nexit 0\n') {
  const dir = await tempDir('keel-fake-bin-');
  for (const name of names) {
    await writeFile(join(dir.path, name), script);
    await chmod(join(dir.path, name), 0o755);
  }
  return dir;
}

describe('which sandbox the settings give on this machine', () => {
  it('is on by default where bubblewrap is installed, and says how to turn it off', async () => {
    await using bin = await fakeBin(['bwrap']);
    const status = sandboxStatus(undefined, { platform: 'linux', searchPath: bin.path });
    expect(status).toMatchObject({ active: true, backend: 'bubblewrap', network: 'none' });
    expect(status.reason).toMatch(/sandbox\.enabled to false/);
    expect(createSandbox(undefined, { platform: 'linux', searchPath: bin.path })?.name).toBe('bubblewrap');
  });

  it('is off by default without a backend, saying what to install; off when enabled is false', async () => {
    await using empty = await fakeBin([]);
    const status = sandboxStatus({}, { platform: 'linux', searchPath: empty.path });
    expect(status).toMatchObject({ active: false, backend: null });
    expect(status.reason).toMatch(/bwrap is not installed.*apt-get install bubblewrap/);
    expect(createSandbox({}, { platform: 'linux', searchPath: empty.path })).toBeUndefined();
    await using bin = await fakeBin(['bwrap']);
    expect(sandboxStatus({ enabled: false }, { platform: 'linux', searchPath: bin.path })).toMatchObject({
      active: false,
      reason: expect.stringMatching(/sandbox\.enabled is false/),
    });
    expect(sandboxStatus(undefined, { platform: 'win32', searchPath: bin.path })).toMatchObject({
      active: false,
    });
  });

  it('asked for explicitly, it stays on and each command says what to install', async () => {
    await using empty = await fakeBin([]);
    const sandbox = createSandbox({ enabled: true }, { platform: 'linux', searchPath: empty.path });
    expect(sandbox?.name).toBe('bubblewrap');
    await expect(sandbox!.wrap({ argv: ['ls'], cwd: '/', writableRoots: ['/'] })).rejects.toThrow(
      /bubblewrap is not installed/,
    );
  });

  it('picks Seatbelt on macOS, containers when named, and refuses what cannot work, naming the option', async () => {
    await using bin = await fakeBin(['sandbox-exec', 'docker']);
    expect(sandboxStatus(undefined, { platform: 'darwin', searchPath: bin.path }).backend).toBe('seatbelt');
    expect(
      sandboxStatus({ backend: 'docker', network_mode: 'host' }, { searchPath: bin.path }),
    ).toMatchObject({
      active: true,
      backend: 'docker',
      network: 'host',
      reason: expect.stringContaining('debian:bookworm-slim'),
    });
    const bad: [Parameters<typeof createSandbox>[0], NodeJS.Platform][] = [
      [{ backend: 'firejail' }, 'linux'],
      [{ network_mode: 'some' }, 'linux'],
      [{ backend: 'seatbelt' }, 'linux'],
      [{ backend: 'bubblewrap' }, 'darwin'],
      [{ enabled: true }, 'win32'],
    ];
    for (const [settings, platform] of bad) {
      let thrown: unknown;
      try {
        createSandbox(settings, { platform });
      } catch (error) {
        thrown = error;
      }
      expect(KeelError.is(thrown) && thrown.code).toBe('CONFIG_ERROR');
      expect((thrown as KeelError).details).toMatchObject({ option: expect.stringMatching(/^sandbox\./) });
      // Shown, not thrown, where the status is displayed.
      expect(sandboxStatus(settings, { platform })).toMatchObject({
        active: false,
        reason: (thrown as Error).message,
      });
    }
  });
});

describe('the Seatbelt profile', () => {
  it('denies by default, reads everywhere, writes only the roots and temp dirs, network only when asked', () => {
    const profile = seatbeltProfile({
      writableRoots: ['/Users/a/work', '/Users/a/"odd\\dir'],
      network: false,
    });
    expect(profile.split('\n').slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
    expect(profile).toContain('(allow file-read*)');
    expect(profile).toContain(
      '(allow file-write* (subpath "/Users/a/work") (subpath "/Users/a/\\"odd\\\\dir") (subpath "/private/tmp") (subpath "/private/var/folders"))',
    );
    expect(profile).not.toMatch(/network/);
    expect(seatbeltProfile({ writableRoots: [], network: true })).toContain('(allow network*)');
  });

  it('exec_command runs through sandbox-exec with that profile (a fake sandbox-exec records it)', async () => {
    await using work = await tempDir();
    // Records its arguments, then runs the command after `--`, as the real one does once confined.
    await using bin = await fakeBin(
      ['sandbox-exec'],
      `#!/bin/sh\nprintf '%s\\n' "$@" > "${work.path}/seatbelt-args.txt"\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n`,
    );
    const sandbox = new SeatbeltSandbox({ network: false, searchPath: bin.path });
    const ctx = await contextFor(work.path, {}, undefined, {
      commands: createCommandPolicy({ allowedCommands: ['echo'] }),
      sandbox,
    });
    expect(await runTool(ctx, 'exec_command', { command: 'echo confined' })).toBe('confined\n\nExit code: 0');
    const args = await readFile(join(work.path, 'seatbelt-args.txt'), 'utf8');
    expect(args.startsWith('-p\n(version 1)\n(deny default)')).toBe(true);
    expect(args).toContain(`(subpath "${work.path}")`);
  });
});

describe('the container backends', () => {
  it('build one docker or podman command line per command: roots mounted, read-only, no network', async () => {
    const sandbox = new ContainerSandbox({
      engine: 'podman',
      image: 'alpine:3',
      network: false,
      user: '1000:1000',
    });
    expect(
      await sandbox.arguments({
        argv: ['bash', '-c', 'make test'],
        cwd: '/w/app',
        writableRoots: ['/w/app', '/w/lib'],
      }),
    ).toEqual([
      'run',
      '--rm',
      '-i',
      '--read-only',
      '--tmpfs',
      '/tmp',
      '--network',
      'none',
      '--user',
      '1000:1000',
      '--volume',
      '/w/app:/w/app:rw',
      '--volume',
      '/w/lib:/w/lib:rw',
      '--workdir',
      '/w/app',
      'alpine:3',
      'bash',
      '-c',
      'make test',
    ]);
    const open = new ContainerSandbox({ engine: 'docker', image: 'alpine:3', network: true, user: '0:0' });
    expect(await open.arguments({ argv: ['ls'], cwd: '/w', writableRoots: ['/w'] })).toContain('host');
  });

  it('refuses with what to install when the engine is missing', async () => {
    await using empty = await fakeBin([]);
    const sandbox = new ContainerSandbox({
      engine: 'docker',
      image: 'x',
      network: false,
      searchPath: empty.path,
    });
    await expect(sandbox.wrap({ argv: ['ls'], cwd: '/', writableRoots: ['/'] })).rejects.toThrow(
      /docker is not installed/,
    );
  });

  it.skipIf(docker === undefined)(
    'with a docker engine and its image here, runs a command confined',
    async () => {
      // This machine has the docker client; without a daemon or the image (no registry here) the wrap
      // still builds the line, and running reports the engine's own error.
      await using work = await tempDir();
      const sandbox = new ContainerSandbox({
        engine: 'docker',
        image: 'debian:bookworm-slim',
        network: false,
      });
      const argv = await sandbox.wrap({ argv: ['true'], cwd: work.path, writableRoots: [work.path] });
      expect(argv[0]).toMatch(/docker$/);
      expect(argv.slice(1, 3)).toEqual(['run', '--rm']);
    },
  );
});
