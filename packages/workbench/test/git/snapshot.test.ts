import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TempGitRepo } from '@keel/testkit';
import { createTempGitRepo } from '@keel/testkit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { restoreSnapshot, snapshot } from '../../src/git/index.ts';
import { rejection, writeFiles } from './helpers.ts';

let repo: TempGitRepo;

beforeEach(async () => {
  repo = await createTempGitRepo({
    files: { '.gitignore': 'build/\n*.log\n', 'a.txt': 'a\n', 'lib/b.txt': 'b\n', 'lib/c.txt': 'c\n' },
  });
});

afterEach(async () => {
  await repo.remove();
});

/** Everything a snapshot must not change: HEAD, the branch, the index and what `git status` says. */
async function repositoryState(): Promise<string[]> {
  return Promise.all([
    repo.git('rev-parse', 'HEAD'),
    repo.git('symbolic-ref', 'HEAD'),
    repo.git('ls-files', '--stage'),
    repo.git('status', '--porcelain=v1', '--untracked-files=all'),
  ]);
}

describe('snapshot', () => {
  test('records tracked and untracked files, not ignored ones, without changing HEAD, index or status', async () => {
    await writeFiles(repo.path, {
      'a.txt': 'a changed\n',
      'new/d.txt': 'd\n',
      'build/out.js': 'x',
      'debug.log': 'l',
    });
    await repo.git('add', 'a.txt');
    await rm(join(repo.path, 'lib/c.txt'));
    const before = await repositoryState();

    const sha = await snapshot(repo.path, 'before todo 1');

    expect(await repositoryState()).toEqual(before);
    const files = (await repo.git('ls-tree', '-r', '--name-only', sha)).trim().split('\n');
    expect(files).toEqual(['.gitignore', 'a.txt', 'lib/b.txt', 'new/d.txt']);
    expect(await repo.git('show', `${sha}:a.txt`)).toBe('a changed\n');
    expect((await repo.git('rev-parse', `refs/workbench/snapshots/${sha}`)).trim()).toBe(sha);
    expect((await repo.git('rev-parse', `${sha}^`)).trim()).toBe(before[0]?.trim());
    expect(await repo.git('log', '-1', '--format=%s', sha)).toContain('before todo 1');
  });
});

describe('restoreSnapshot', () => {
  test('removes files created since, restores deleted and modified ones, leaves ignored files and HEAD', async () => {
    await writeFiles(repo.path, { 'untracked.txt': 'u\n' });
    const sha = await snapshot(repo.path, 'before');
    const head = await repo.git('rev-parse', 'HEAD');

    // What a todo might do: edit, delete, create (in a new folder), stage, and write build output.
    await writeFiles(repo.path, {
      'a.txt': 'rewritten\n',
      'src/new/file.ts': 'new\n',
      'build/out.js': 'built',
    });
    await rm(join(repo.path, 'lib'), { recursive: true });
    await rm(join(repo.path, 'untracked.txt'));
    await repo.git('add', '-A');

    await restoreSnapshot(repo.path, sha);

    expect(await readFile(join(repo.path, 'a.txt'), 'utf8')).toBe('a\n');
    expect(await readFile(join(repo.path, 'lib/b.txt'), 'utf8')).toBe('b\n');
    expect(await readFile(join(repo.path, 'lib/c.txt'), 'utf8')).toBe('c\n');
    expect(await readFile(join(repo.path, 'untracked.txt'), 'utf8')).toBe('u\n');
    await expect(stat(join(repo.path, 'src'))).rejects.toThrow();
    expect(await readFile(join(repo.path, 'build/out.js'), 'utf8')).toBe('built');
    expect(await repo.git('rev-parse', 'HEAD')).toBe(head);
    expect((await repo.git('symbolic-ref', '--short', 'HEAD')).trim()).toBe('main');
    expect(await repo.git('status', '--porcelain=v1', '--untracked-files=all')).toBe('?? untracked.txt\n');
  });

  test('a file replaced by a folder (and back) is restored', async () => {
    const sha = await snapshot(repo.path);
    await rm(join(repo.path, 'a.txt'));
    await mkdir(join(repo.path, 'a.txt'));
    await writeFile(join(repo.path, 'a.txt', 'inner.txt'), 'i\n');
    await restoreSnapshot(repo.path, sha);
    expect(await readFile(join(repo.path, 'a.txt'), 'utf8')).toBe('a\n');
  });

  test('works in a repository without commits', async () => {
    await using empty = await createTempGitRepo({ commit: false, files: { 'first.txt': '1\n' } });
    const sha = await snapshot(empty.path);
    await writeFiles(empty.path, { 'second.txt': '2\n' });
    await rm(join(empty.path, 'first.txt'));
    await restoreSnapshot(empty.path, sha);
    expect(await readFile(join(empty.path, 'first.txt'), 'utf8')).toBe('1\n');
    await expect(stat(join(empty.path, 'second.txt'))).rejects.toThrow();
    expect(await empty.git('status', '--porcelain')).toBe('?? first.txt\n');
  });

  test('refuses an unknown snapshot with 422', async () => {
    const error = await rejection(restoreSnapshot(repo.path, 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef'));
    expect(error).toMatchObject({ code: 'REPOSITORY_UNUSABLE', status: 422 });
  });
});
