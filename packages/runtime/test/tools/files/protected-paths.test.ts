// Protected paths (issues #22 and #36): the file tools may read every `.git`, `.gitmodules` and `.runtime/`
// at any depth but never change them, however the path is spelled, and every write tool goes through
// the path guard for it. Ordinary writes next to them still work.
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { protectedEntryOf } from '../../../src/files/index.ts';
import { FileHistory } from '../../../src/tools/index.ts';
import { contextFor, runTool, tempDir, writeFiles } from '../helpers.ts';

const originals = {
  '.git/config': '[core]\n\tbare = false\n',
  '.git/hooks/pre-commit.sample': '#!/bin/sh\n',
  '.gitmodules': '[submodule "x"]\n',
  '.runtime/config.json': '{"sandbox": {"enabled": true}}\n',
  'src/a.txt': 'hello\n',
};

async function setup() {
  const work = await tempDir();
  await writeFiles(work.path, originals);
  const ctx = await contextFor(work.path, {}, undefined, { history: new FileHistory() });
  return { work, ctx };
}

async function unchanged(root: string): Promise<void> {
  for (const [path, content] of Object.entries(originals)) {
    expect(await readFile(join(root, path), 'utf8')).toBe(content);
  }
}

const refusal = (pattern: string) => ({
  code: 'PERMISSION_DENIED',
  message: expect.stringMatching(/is a protected path.*ask the user to make it themselves/s),
  details: expect.objectContaining({ protected: pattern, reason: 'protected_path' }),
});

describe('protected paths and the file tools', () => {
  it('refuses write_file on each protected path, naming the path, why, and how to change it', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    const cases: [string, string][] = [
      ['.git/config', '.git'],
      ['.git/hooks/pre-commit', '.git'],
      ['.git/hooks/sub/dir/x', '.git'],
      ['.gitmodules', '.gitmodules'],
      ['.runtime/config.json', '.runtime'],
      ['.runtime/new/deeper.json', '.runtime'],
      ['.git/modules/lib/config', '.git'],
      ['.git/modules/lib/hooks/post-checkout', '.git'],
      ['.git/config.worktree', '.git'],
      // Spelled another way: `..`, absolute, case and Windows/HFS+ variants, a nested project.
      ['src/../.git/config', '.git'],
      [join(work.path, '.runtime/config.json'), '.runtime'],
      ['.GIT/config', '.git'],
      ['.Git/Hooks/pre-push', '.git'],
      ['.git./config', '.git'],
      ['.g\u200cit/config', '.git'],
      ['.RUNTIME/config.json', '.runtime'],
      ['packages/app/.git/config', '.git'],
      ['packages/app/.runtime/config.json', '.runtime'],
    ];
    for (const [path, pattern] of cases) {
      await expect(runTool(ctx, 'write_file', { path, content: 'x' }), path).rejects.toMatchObject(
        refusal(pattern),
      );
    }
    const error = await runTool(ctx, 'write_file', { path: '.git/config', content: 'x' }).catch((e) => e);
    expect(error.message).toContain("'.git/config' is a protected path");
    expect(error.message).toContain('core.fsmonitor');
    await unchanged(work.path);
    await expect(readFile(join(work.path, '.git/hooks/pre-commit'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    await expect(readFile(join(work.path, 'packages/app/.git/config'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('refuses edit_file, patch and undo_file too, but lets them read', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    await expect(
      runTool(ctx, 'edit_file', { path: '.git/config', old_text: 'bare', new_text: 'fsmonitor' }),
    ).rejects.toMatchObject(refusal('.git'));
    await expect(
      runTool(ctx, 'patch', {
        path: '.runtime/config.json',
        diff: '@@ -1 +1 @@\n-{"sandbox": {"enabled": true}}\n+{}\n',
      }),
    ).rejects.toMatchObject(refusal('.runtime'));
    await expect(
      runTool(ctx, 'patch', { path: '.git/hooks/pre-commit', diff: '@@ -0,0 +1 @@\n+#!/bin/sh\n' }),
    ).rejects.toMatchObject(refusal('.git'));
    await expect(runTool(ctx, 'undo_file', { path: '.gitmodules' })).rejects.toMatchObject(
      refusal('.gitmodules'),
    );
    expect(await runTool(ctx, 'read_file', { path: '.git/config' })).toContain('bare = false');
    await unchanged(work.path);
  });

  it('refuses a path that reaches a protected one through a symbolic link', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    await symlink('.git', join(work.path, 'gitdir'));
    await symlink(join(work.path, '.runtime'), join(work.path, 'settings'));
    await symlink('.git/config', join(work.path, 'config.ini'));
    for (const path of ['gitdir/config', 'gitdir/hooks/pre-commit', 'settings/config.json', 'config.ini']) {
      await expect(runTool(ctx, 'write_file', { path, content: 'x' }), path).rejects.toMatchObject({
        code: 'PERMISSION_DENIED',
      });
    }
    await unchanged(work.path);
  });

  it('refuses what a protected path really points to (a .runtime that is a link)', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'real-settings/config.json': '{}\n' });
    await symlink('real-settings', join(work.path, '.runtime'));
    const ctx = await contextFor(work.path);
    await expect(
      runTool(ctx, 'write_file', {
        path: 'real-settings/config.json',
        content: '{"sandbox":{"enabled":false}}',
      }),
    ).rejects.toMatchObject(refusal('.runtime'));
    expect(await readFile(join(work.path, 'real-settings/config.json'), 'utf8')).toBe('{}\n');
  });

  it('protects the allowed roots the same way', async () => {
    await using work = await tempDir();
    await using extra = await tempDir();
    await mkdir(join(extra.path, '.git'));
    const ctx = await contextFor(work.path, { allowedRoots: [extra.path] });
    await expect(
      runTool(ctx, 'write_file', { path: join(extra.path, '.git/hooks/post-checkout'), content: 'x' }),
    ).rejects.toMatchObject(refusal('.git'));
    expect(await runTool(ctx, 'write_file', { path: join(extra.path, 'ok.txt'), content: 'x' })).toContain(
      'Created',
    );
  });

  it('still writes ordinary files, including look-alikes that are not protected', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    for (const path of [
      'src/a.txt',
      '.github/workflows/ci.yml',
      '.gitignore',
      'config',
      'hooks/x',
      '.runtime-notes',
    ]) {
      expect(await runTool(ctx, 'write_file', { path, content: 'ok\n' }), path).toMatch(
        /^(Created|Overwrote)/,
      );
    }
    expect(
      await runTool(ctx, 'edit_file', { path: 'src/a.txt', old_text: 'ok', new_text: 'fine' }),
    ).toContain('Edited');
  });
});

describe('the protected-path table', () => {
  it('matches anywhere in a root, case-insensitively, and nothing else', () => {
    // The whole of every `.git` (issue #36): its commondir, info/, objects and refs too, at any depth.
    for (const path of [
      '.git',
      '.git/config',
      '.git/commondir',
      '.git/info/attributes',
      '.git/objects/info/alternates',
      'a/b/.git/worktrees/w/gitdir',
      '.git/HOOKS',
      'pkg/.git',
    ]) {
      expect(protectedEntryOf(path)?.pattern, path).toBe('.git');
    }
    expect(protectedEntryOf('.runtime')?.pattern).toBe('.runtime');
    expect(protectedEntryOf('pkg/.gitmodules')?.pattern).toBe('.gitmodules');
    for (const free of [
      'src/config',
      '.gitignore',
      '.github/workflows/ci.yml',
      'git/config',
      '.gitattributes',
    ]) {
      expect(protectedEntryOf(free), free).toBeUndefined();
    }
  });
});
