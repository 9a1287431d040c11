import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TempDir, TempGitRepo } from '@keel/testkit';
import { createTempDir, createTempGitRepo } from '@keel/testkit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createWorkspace, remoteUrl } from '../../src/git/index.ts';
import { git, rejection } from './helpers.ts';

/** Whether /dev/shm exists on another device than the temp folder, where the sources are made. */
function otherDeviceThanTmp(): boolean {
  try {
    return statSync('/dev/shm').dev !== statSync(tmpdir()).dev;
  } catch {
    return false;
  }
}

describe('createWorkspace', () => {
  let dir: TempDir;
  let source: TempGitRepo;
  let bare: string;

  beforeEach(async () => {
    dir = await createTempDir();
    source = await createTempGitRepo({ files: { 'README.md': '# app\n', 'src/index.ts': 'export {};\n' } });
    bare = join(dir.path, 'upstream.git');
    await git(dir.path, 'init', '-q', '--bare', bare);
    await source.git('remote', 'add', 'origin', bare);
    await source.git('push', '-q', '-u', 'origin', 'main');
  });

  afterEach(async () => {
    await source.remove();
    await dir.remove();
  });

  test('clones the source, points origin at its origin and creates the branch from its HEAD', async () => {
    await source.git('commit', '-q', '--allow-empty', '-m', 'local only');
    const head = (await source.git('rev-parse', 'HEAD')).trim();
    const dest = join(dir.path, 'tasks', 't1', 'repo');

    const info = await createWorkspace({ source: source.path, dest, branch: 'keel/t1' });

    expect(info).toEqual({
      dir: dest,
      branch: 'keel/t1',
      originUrl: bare,
      baseCommit: head,
      baseBranch: 'main',
    });
    expect(await remoteUrl(dest)).toBe(bare);
    expect((await git(dest, 'symbolic-ref', '--short', 'HEAD')).trim()).toBe('keel/t1');
    expect((await git(dest, 'rev-parse', 'HEAD')).trim()).toBe(head);
    expect(await readFile(join(dest, 'src/index.ts'), 'utf8')).toBe('export {};\n');
    expect((await git(dest, 'status', '--porcelain')).trim()).toBe('');
    // The remote-tracking refs describe the real origin, not the source's local branches.
    const originMain = (await git(dest, 'rev-parse', 'refs/remotes/origin/main')).trim();
    expect(originMain).toBe((await git(bare, 'rev-parse', 'main')).trim());
    expect(originMain).not.toBe(head);
    // The clone was staged next to dest and renamed into place: nothing else is left behind.
    expect(await readdir(join(dir.path, 'tasks', 't1'))).toEqual(['repo']);
  });

  // WORKBENCH_HOME on another filesystem than the repositories (a tmpfs here): objects cannot be
  // hard-linked there, and the clone must copy them instead of failing ("Invalid cross-device link").
  test.skipIf(!otherDeviceThanTmp())('clones onto another filesystem than the source', async () => {
    const other = await mkdtemp(join('/dev/shm', 'keel-ws-'));
    try {
      const dest = join(other, 'tasks', 't1', 'repo');
      const info = await createWorkspace({ source: source.path, dest, branch: 'keel/t1' });
      expect(info.dir).toBe(dest);
      expect(await readFile(join(dest, 'src/index.ts'), 'utf8')).toBe('export {};\n');
      expect((await git(dest, 'status', '--porcelain')).trim()).toBe('');
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  // A partial clone (`--filter=blob:none`) lacks the blobs of older commits: the workspace is still made.
  test('clones a partial clone of the repository', async () => {
    for (const version of ['two', 'three']) {
      await writeFile(join(source.path, 'README.md'), `# app ${version}\n`);
      await source.git('commit', '-q', '-am', version);
    }
    await source.git('push', '-q', 'origin', 'main');
    await git(bare, 'config', 'uploadpack.allowFilter', 'true');
    const partial = join(dir.path, 'partial');
    await git(dir.path, 'clone', '-q', '-b', 'main', '--filter=blob:none', `file://${bare}`, partial);
    // It is partial: the older READMEs are not there.
    const missing = await git(partial, 'rev-list', '--objects', '--all', '--missing=print');
    expect(missing).toMatch(/^\?/m);
    const dest = join(dir.path, 'tasks', 't1', 'repo');
    const info = await createWorkspace({ source: partial, dest, branch: 'keel/t1' });
    expect(info.baseCommit).toBe((await git(partial, 'rev-parse', 'HEAD')).trim());
    expect(await readFile(join(dest, 'README.md'), 'utf8')).toBe('# app three\n');
    expect((await git(dest, 'status', '--porcelain')).trim()).toBe('');
  });

  test('is idempotent: a retry returns the same workspace without touching it', async () => {
    const dest = join(dir.path, 'ws');
    const first = await createWorkspace({ source: source.path, dest, branch: 'keel/t1' });
    await writeFile(join(dest, 'work.txt'), 'in progress\n');
    const before = await stat(join(dest, '.git', 'HEAD'));

    const second = await createWorkspace({ source: source.path, dest, branch: 'keel/t1' });

    expect(second).toEqual(first);
    expect(await readFile(join(dest, 'work.txt'), 'utf8')).toBe('in progress\n');
    expect((await stat(join(dest, '.git', 'HEAD'))).mtimeMs).toBe(before.mtimeMs);
  });

  test('recognises its workspace through a symlinked path, and concurrent calls agree', async () => {
    const link = join(dir.path, 'link');
    await symlink(dir.path, link);
    const dest = join(link, 'ws');
    const [a, b] = await Promise.all([
      createWorkspace({ source: source.path, dest, branch: 'keel/t1' }),
      createWorkspace({ source: source.path, dest, branch: 'keel/t1' }),
    ]);
    expect(b).toEqual(a);
    expect(await createWorkspace({ source: source.path, dest, branch: 'keel/t1' })).toEqual(a);
    expect((await readdir(dir.path)).sort()).toEqual(['link', 'upstream.git', 'ws']);
  });

  test('switches to the branch when it already exists on the remote', async () => {
    await source.git('switch', '-q', '-c', 'feature');
    await writeFile(join(source.path, 'feature.txt'), 'f\n');
    await source.git('add', '-A');
    await source.git('commit', '-q', '-m', 'feature work');
    await source.git('push', '-q', 'origin', 'feature');
    const featureTip = (await source.git('rev-parse', 'HEAD')).trim();
    await source.git('switch', '-q', 'main');
    await source.git('branch', '-q', '-D', 'feature');
    const dest = join(dir.path, 'ws');

    const info = await createWorkspace({ source: source.path, dest, branch: 'feature' });

    expect(info.baseCommit).toBe(featureTip);
    expect(info.baseBranch).toBe('main');
    expect(await readFile(join(dest, 'feature.txt'), 'utf8')).toBe('f\n');
    expect((await git(dest, 'rev-parse', '--abbrev-ref', 'feature@{upstream}')).trim()).toBe(
      'origin/feature',
    );
  });

  test('a source with thousands of branches: the workspace gets the base and its own branch only', async () => {
    const head = (await source.git('rev-parse', 'HEAD')).trim();
    // 3,000 local branches and 3,000 branches of origin, as a long-lived repository collects them.
    const refs = Array.from({ length: 3000 }, (_, index) => [
      `create refs/heads/old/${index} ${head}`,
      `create refs/remotes/origin/old/${index} ${head}`,
    ]).flat();
    await new Promise<void>((resolve, reject) => {
      const child = execFile('git', ['update-ref', '--stdin'], { cwd: source.path }, (error) =>
        error ? reject(error) : resolve(),
      );
      child.stdin?.end(`${refs.join('\n')}\n`);
    });
    // The task's own branch exists on origin already (a task started again).
    await source.git('update-ref', 'refs/remotes/origin/keel/t9', head);
    const dest = join(dir.path, 'ws');

    await createWorkspace({ source: source.path, dest, branch: 'keel/t9' });

    const copied = (await git(dest, 'for-each-ref', '--format=%(refname)')).trim().split('\n').sort();
    expect(copied).toEqual([
      'refs/heads/keel/t9',
      'refs/heads/main',
      'refs/remotes/origin/keel/t9',
      'refs/remotes/origin/main',
    ]);
    expect((await git(dest, 'rev-parse', '--abbrev-ref', 'keel/t9@{upstream}')).trim()).toBe(
      'origin/keel/t9',
    );
  });

  test('keeps origin at the source path when the source has no origin', async () => {
    await source.git('remote', 'remove', 'origin');
    const dest = join(dir.path, 'ws');
    const info = await createWorkspace({ source: source.path, dest, branch: 'keel/t2' });
    expect(info.originUrl).toBe(source.path);
  });

  test('accepts an empty folder as the destination', async () => {
    const dest = await createTempDir();
    try {
      const info = await createWorkspace({ source: source.path, dest: dest.path, branch: 'keel/t3' });
      expect(info.branch).toBe('keel/t3');
      expect(await readFile(join(dest.path, 'README.md'), 'utf8')).toBe('# app\n');
    } finally {
      await dest.remove();
    }
  });

  test('refuses a destination that is something else, and a clone on another branch', async () => {
    const foreignFolder = join(dir.path, 'foreign');
    await git(dir.path, 'init', '-q', foreignFolder);
    await writeFile(join(foreignFolder, 'mine.txt'), 'keep me\n');
    const notAFolder = join(dir.path, 'file.txt');
    await writeFile(notAFolder, 'x');
    for (const dest of [foreignFolder, notAFolder]) {
      const error = await rejection(createWorkspace({ source: source.path, dest, branch: 'keel/t1' }));
      expect(error).toMatchObject({ code: 'WORKSPACE_EXISTS', status: 409 });
    }
    expect(await readFile(join(foreignFolder, 'mine.txt'), 'utf8')).toBe('keep me\n');

    const dest = join(dir.path, 'ws');
    await createWorkspace({ source: source.path, dest, branch: 'keel/t1' });
    const error = await rejection(createWorkspace({ source: source.path, dest, branch: 'keel/other' }));
    expect(error).toMatchObject({ code: 'WORKSPACE_EXISTS', status: 409 });
    expect(error.message).toContain('keel/t1');
  });

  test('refuses a source that is not a repository, and a bad branch name', async () => {
    const dest = join(dir.path, 'ws');
    const notRepo = await rejection(
      createWorkspace({ source: join(dir.path, 'nothing'), dest, branch: 'b' }),
    );
    expect(notRepo).toMatchObject({ code: 'NOT_A_GIT_REPOSITORY', status: 422 });
    const badBranch = await rejection(createWorkspace({ source: source.path, dest, branch: 'bad..name' }));
    expect(badBranch).toMatchObject({ code: 'REPOSITORY_UNUSABLE', status: 422 });
    await expect(stat(dest)).rejects.toThrow();
  });
});
