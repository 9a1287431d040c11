import { execFile } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTempDir, createTempGitRepo } from '../../src/index.ts';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('temporary directories and git repositories', () => {
  it('creates an empty directory that await using removes', async () => {
    let path = '';
    {
      await using dir = await createTempDir();
      path = dir.path;
      expect(await exists(path)).toBe(true);
    }
    expect(await exists(path)).toBe(false);
  });

  it('creates a repo on main with the files committed', async () => {
    await using repo = await createTempGitRepo({
      files: { 'README.md': '# Demo\n', 'src/nested/a.ts': 'export {};\n' },
    });
    expect(await readFile(join(repo.path, 'src/nested/a.ts'), 'utf8')).toBe('export {};\n');
    expect((await repo.git('branch', '--show-current')).trim()).toBe('main');
    expect((await repo.git('log', '--format=%s|%an')).trim()).toBe('Initial commit|Keel Test');
    expect((await repo.git('ls-files')).trim().split('\n')).toEqual(['README.md', 'src/nested/a.ts']);
    expect((await repo.git('status', '--porcelain')).trim()).toBe('');
    // The real git CLI sees it too, without our helper.
    const { stdout } = await promisify(execFile)('git', ['rev-parse', '--show-toplevel'], { cwd: repo.path });
    expect(stdout.trim()).toBe(repo.path);
  });

  it('can leave files uncommitted, and remove() deletes the repo', async () => {
    const repo = await createTempGitRepo({ files: { 'a.txt': 'a' }, commit: false });
    expect((await repo.git('status', '--porcelain')).trim()).toBe('?? a.txt');
    await expect(repo.git('rev-parse', 'HEAD')).rejects.toThrow(/git rev-parse HEAD failed/);
    await repo.remove();
    expect(await exists(repo.path)).toBe(false);
  });

  it('makes an empty initial commit when there are no files', async () => {
    await using repo = await createTempGitRepo();
    expect((await repo.git('rev-list', '--count', 'HEAD')).trim()).toBe('1');
  });
});
