// Protected paths in the sandbox (issue #22, item 2): a sandboxed command may write the workdir, and git
// may still commit there, but `.git/config`, `.git/hooks/`, `.gitmodules` and `.runtime/` stay as they
// were, whatever the command tries (writing, replacing, renaming `.git` away, creating what is missing).
// Each script is run from a file so the command check cannot see its paths: the sandbox must stop it.
import { spawnSync } from 'node:child_process';
import { lstat, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startRemoteSandboxServer } from '@keel/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { ContainerSandbox, createSandbox, findExecutable, seatbeltProfile } from '../../src/sandbox/index.ts';
import { createCommandPolicy, type ToolContext } from '../../src/tools/index.ts';
import { contextFor, git, runTool, tempDir, writeFiles } from '../tools/helpers.ts';

const bwrap = await findExecutable('bwrap', process.env.PATH ?? '');
const anything = createCommandPolicy({ allowedCommands: ['*'] });
// Where `sh` writes its scripts: not under /tmp (private to the sandbox) and readable on purpose, as nothing
// outside the read boundary's allow-list is.
const scripts = await mkdtemp('/var/tmp/keel-script-');
const sandboxSettings = { enabled: true, backend: 'bubblewrap', readable_paths: [scripts] };
afterAll(() => rm(scripts, { recursive: true, force: true }));

async function repository() {
  const work = await tempDir('keel-protected-');
  git(work.path, 'init', '-q', '.');
  git(work.path, 'config', 'user.email', 'test@example.com');
  git(work.path, 'config', 'user.name', 'Test');
  await writeFiles(work.path, {
    '.gitmodules': '[submodule "lib"]\n\tpath = lib\n\turl = https://example.com/lib.git\n',
    '.runtime/config.json': '{"sandbox": {"enabled": true}}\n',
    'README.md': 'hello\n',
  });
  const sandbox = createSandbox(sandboxSettings);
  const ctx = await contextFor(work.path, {}, undefined, { commands: anything, sandbox });
  return { work, ctx };
}

/** What the protected paths hold now, to compare before and after. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const hooks = (await readdir(join(root, '.git/hooks'))).sort().join(',');
  const read = (path: string) => readFile(join(root, path), 'utf8').catch(() => '(missing)');
  return {
    config: await read('.git/config'),
    hooks,
    gitmodules: await read('.gitmodules'),
    runtime: (await readdir(join(root, '.runtime'))).sort().join(','),
    runtimeConfig: await read('.runtime/config.json'),
  };
}

/** Runs `script` through exec_command from a file outside the workdir, where the command check cannot look. */
async function sh(ctx: ToolContext, script: string): Promise<string> {
  const dir = await mkdtemp(join(scripts, 'run-'));
  try {
    await writeFile(join(dir, 'script.sh'), `${script}\n`);
    return await runTool(ctx, 'exec_command', { command: `bash ${dir}/script.sh` });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe.skipIf(bwrap === undefined)(
  `protected paths in the bubblewrap sandbox${bwrap ? '' : ' (skipped: bwrap is not installed)'}`,
  () => {
    it('refuses every way of changing them, and leaves them as they were', async () => {
      const { work, ctx } = await repository();
      await using _ = work;
      const before = await snapshot(work.path);
      const attacks = [
        'echo "[core] fsmonitor = touch pwned" >> .git/config',
        'git config core.fsmonitor "touch pwned"',
        'mkdir -p .runtime && echo "{\\"sandbox\\":{\\"enabled\\":false}}" > .runtime/config.json',
        'rm -rf .runtime',
        'mv .runtime .runtime-old',
        'touch .git/hooks/pre-commit',
        'printf "#!/bin/sh\\ntouch pwned\\n" > .git/hooks/post-checkout',
        'rm -rf .git/hooks',
        'mv .git/hooks .git/hooks-old',
        'printf "[submodule \\"x\\"]\\n" > .gitmodules',
        'rm -f .gitmodules',
        'mv .git/config .git/config-old',
        'echo "[core] fsmonitor = touch pwned" > c && mv c .git/config',
        'ln -f .git/config linked && echo "[alias] x = !touch pwned" >> linked',
        // Renaming `.git` away and putting a hostile one in its place.
        'mv .git .git-old && mkdir -p .git/hooks && echo x > .git/hooks/pre-commit',
      ];
      for (const attack of attacks) {
        const output = await sh(ctx, attack);
        expect(output, attack).toMatch(/read-only file system|resource busy|cross-device/i);
        expect(output, attack).not.toMatch(/Exit code: 0$/);
        expect(await snapshot(work.path), attack).toEqual(before);
      }
      expect(await readdir(work.path)).not.toContain('.git-old');
      expect(await readdir(work.path)).not.toContain('pwned');
    });

    it('still lets commands write the workdir and git commit', async () => {
      const { work, ctx } = await repository();
      await using _ = work;
      const before = await snapshot(work.path);
      const output = await sh(
        ctx,
        'echo new > notes.txt && mkdir -p src && echo x > src/a.ts && git add -A && git commit -qm "from the sandbox" && git log --oneline',
      );
      expect(output).toMatch(/from the sandbox\n\nExit code: 0$/);
      expect(git(work.path, 'log', '--format=%s')).toBe('from the sandbox\n');
      expect(git(work.path, 'show', '--name-only', '--format=', 'HEAD')).toContain('src/a.ts');
      expect(await readFile(join(work.path, 'notes.txt'), 'utf8')).toBe('new\n');
      expect(await snapshot(work.path)).toEqual(before);
    });

    it('keeps missing ones from being created: .runtime/, .git/hooks/, and .git in a folder that is no repository', async () => {
      await using plain = await tempDir('keel-protected-');
      await writeFile(join(plain.path, 'a.txt'), 'a\n');
      const sandbox = createSandbox(sandboxSettings);
      const ctx = await contextFor(plain.path, {}, undefined, { commands: anything, sandbox });
      const output = await sh(
        ctx,
        'mkdir -p .runtime; echo "{}" > .runtime/config.json; git init -q .; git config core.fsmonitor x; echo ok > b.txt',
      );
      expect(output).toMatch(/read-only file system/i);
      expect(await readFile(join(plain.path, 'b.txt'), 'utf8')).toBe('ok\n');
      // No config, no repository, and not even the empty mount points are left behind.
      expect((await readdir(plain.path)).sort()).toEqual(['a.txt', 'b.txt']);

      await using repo = await tempDir('keel-protected-');
      git(repo.path, 'init', '-q', '.');
      spawnSync('rm', ['-rf', join(repo.path, '.git/hooks')]);
      const inRepo = await contextFor(repo.path, {}, undefined, { commands: anything, sandbox });
      expect(await sh(inRepo, 'mkdir -p .git/hooks; echo x > .git/hooks/pre-commit')).toMatch(
        /read-only file system/i,
      );
      expect(await lstat(join(repo.path, '.git/hooks')).catch(() => undefined)).toBeUndefined();
    });

    it('protects the git folders of submodules too', async () => {
      const { work, ctx } = await repository();
      await using _ = work;
      await writeFiles(work.path, {
        '.git/modules/libs/x/HEAD': 'ref: refs/heads/main\n',
        '.git/modules/libs/x/config': '[core]\n',
      });
      const output = await sh(
        ctx,
        'echo "[core] fsmonitor = x" >> .git/modules/libs/x/config; mkdir .git/modules/libs/x/hooks',
      );
      expect(output).toMatch(/read-only file system/i);
      expect(await readFile(join(work.path, '.git/modules/libs/x/config'), 'utf8')).toBe('[core]\n');
      // Nothing was created (the empty mount point is removed after the command).
      expect(
        await lstat(join(work.path, '.git/modules/libs/x/hooks')).catch(() => undefined),
      ).toBeUndefined();
    });
  },
);

describe('protected paths in the other backends', () => {
  it('the remote backend brings no protected path back, in any case spelling', async () => {
    await using server = await startRemoteSandboxServer();
    await using work = await tempDir();
    await using state = await tempDir('keel-remote-state-');
    await writeFiles(work.path, { 'index.js': 'x' });
    const sandbox = createSandbox(
      { backend: 'remote', remote: { url: server.url } },
      { env: {}, remoteStateDir: state.path },
    );
    const ctx = await contextFor(work.path, {}, undefined, { commands: anything, sandbox });
    const script =
      "const fs = require('fs'); fs.mkdirSync('.runtime'); fs.writeFileSync('.runtime/config.json', '{}');" +
      "fs.mkdirSync('.RUNTIME2'); fs.writeFileSync('.Gitmodules', 'x'); fs.writeFileSync('made.txt', 'ok');";
    expect(await runTool(ctx, 'exec_command', { command: `node -e "${script}"` })).toBe(
      '(no output)\n\nExit code: 0',
    );
    expect(await readFile(join(work.path, 'made.txt'), 'utf8')).toBe('ok');
    expect((await readdir(work.path)).sort()).toEqual(['.RUNTIME2', 'index.js', 'made.txt']);
  });

  it('the container backend mounts the existing ones read-only and pins .git', async () => {
    const { work } = await repository();
    await using _ = work;
    const args = await new ContainerSandbox({ engine: 'docker', image: 'img', network: false }).arguments({
      argv: ['true'],
      cwd: work.path,
      writableRoots: [work.path],
    });
    const volumes = args.filter((_arg, i) => args[i - 1] === '--volume');
    expect(volumes.slice(0, 2)).toEqual([
      `${work.path}:${work.path}:rw`,
      `${work.path}/.git:${work.path}/.git:rw`,
    ]);
    expect(volumes).toEqual(
      expect.arrayContaining([
        `${work.path}/.git/config:${work.path}/.git/config:ro`,
        `${work.path}/.git/hooks:${work.path}/.git/hooks:ro`,
        `${work.path}/.git/info:${work.path}/.git/info:ro`,
        `${work.path}/.gitmodules:${work.path}/.gitmodules:ro`,
        `${work.path}/.runtime:${work.path}/.runtime:ro`,
      ]),
    );
    // Everything else of git's folder that is mounted at all is read-only; objects and refs are not mounted.
    expect(volumes.slice(2).every((volume) => volume.endsWith(':ro'))).toBe(true);
    expect(volumes.some((volume) => /\.git\/(objects|refs|index|HEAD)/.test(volume))).toBe(false);
  });

  it('the Seatbelt profile denies writes to them after allowing the roots', () => {
    const profile = seatbeltProfile({ writableRoots: ['/Users/me/repo'], network: false });
    const lines = profile.split('\n');
    const deny = lines.at(-1) ?? '';
    expect(lines.findIndex((line) => line.startsWith('(allow file-write*'))).toBeLessThan(lines.length - 1);
    for (const rule of [
      '(literal "/Users/me/repo/.git")',
      '(literal "/Users/me/repo/.git/config")',
      '(subpath "/Users/me/repo/.git/hooks")',
      '(literal "/Users/me/repo/.gitmodules")',
      '(subpath "/Users/me/repo/.runtime")',
    ]) {
      expect(deny).toContain(rule);
    }
    expect(deny.startsWith('(deny file-write* ')).toBe(true);
  });
});
