import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir, createTempGitRepo } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { currentBranch, isGitRepository, remoteUrl } from '../../src/git/index.ts';
import { git, rejection } from './helpers.ts';

describe('isGitRepository', () => {
  test('is true at the top level and inside a work tree', async () => {
    await using repo = await createTempGitRepo({ files: { 'src/a.ts': 'x\n' } });
    expect(await isGitRepository(repo.path)).toBe(true);
    expect(await isGitRepository(join(repo.path, 'src'))).toBe(true);
  });

  test('is false for a plain folder, a missing path and a file', async () => {
    await using dir = await createTempDir();
    await mkdir(join(dir.path, 'plain'));
    expect(await isGitRepository(join(dir.path, 'plain'))).toBe(false);
    expect(await isGitRepository(join(dir.path, 'missing'))).toBe(false);
    await using repo = await createTempGitRepo({ files: { 'a.txt': 'a\n' } });
    expect(await isGitRepository(join(repo.path, 'a.txt'))).toBe(false);
  });
});

describe('currentBranch', () => {
  test('names the checked-out branch', async () => {
    await using repo = await createTempGitRepo();
    await repo.git('switch', '-q', '-c', 'feature/x');
    expect(await currentBranch(repo.path)).toBe('feature/x');
  });

  test('falls back to the remote default branch when HEAD is detached', async () => {
    await using remote = await createTempGitRepo({ files: { 'a.txt': 'a\n' } });
    await remote.git('branch', '-m', 'trunk');
    await using dir = await createTempDir();
    const clone = join(dir.path, 'clone');
    await git(dir.path, 'clone', '-q', remote.path, clone);
    await git(clone, 'checkout', '-q', '--detach');
    expect(await currentBranch(clone)).toBe('trunk');
  });

  test('refuses a folder that is not a repository with NOT_A_GIT_REPOSITORY (422)', async () => {
    await using dir = await createTempDir();
    const error = await rejection(currentBranch(dir.path));
    expect(error).toMatchObject({ code: 'NOT_A_GIT_REPOSITORY', status: 422 });
    expect(error.message).toContain(dir.path);
    expect(error.details?.stderr).toMatch(/not a git repository/);
  });
});

describe('remoteUrl', () => {
  test('is null without the remote and the URL with it', async () => {
    await using repo = await createTempGitRepo();
    expect(await remoteUrl(repo.path)).toBeNull();
    await repo.git('remote', 'add', 'origin', 'git@github.com:o/r.git');
    await repo.git('remote', 'add', 'upstream', 'https://gitlab.example.com/g/r.git');
    expect(await remoteUrl(repo.path)).toBe('git@github.com:o/r.git');
    expect(await remoteUrl(repo.path, 'upstream')).toBe('https://gitlab.example.com/g/r.git');
  });

  test('throws NOT_A_GIT_REPOSITORY for a missing folder', async () => {
    await using dir = await createTempDir();
    const error = await rejection(remoteUrl(join(dir.path, 'nope')));
    expect(error).toMatchObject({ code: 'NOT_A_GIT_REPOSITORY', status: 422 });
  });
});
