import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TempGitRepo } from '@keel/testkit';
import { createTempGitRepo } from '@keel/testkit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { diff, snapshot } from '../../src/git/index.ts';
import { rejection, writeFiles } from './helpers.ts';

const longText = Array.from(
  { length: 40 },
  (_, i) => `line ${i} of a file long enough to be recognised\n`,
).join('');
let repo: TempGitRepo;
let base: string;

beforeEach(async () => {
  repo = await createTempGitRepo({
    files: { '.gitignore': '*.log\n', 'a.txt': 'one\ntwo\n', 'gone.txt': 'bye\n', 'old/name.txt': longText },
  });
  base = (await repo.git('rev-parse', 'HEAD')).trim();
});

afterEach(async () => {
  await repo.remove();
});

async function changeEverything(): Promise<void> {
  await writeFiles(repo.path, {
    'a.txt': 'one\n2\nthree\n',
    'new/untracked.ts': 'export const x = 1;\n',
    'new/name.txt': longText,
    'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 0xff, 0x00, 0x10]),
    'noise.log': 'ignored\n',
  });
  await rm(join(repo.path, 'gone.txt'));
  await rm(join(repo.path, 'old'), { recursive: true });
}

describe('diff', () => {
  test('the working tree (untracked included, ignored excluded) against a commit', async () => {
    await changeEverything();
    const index = await repo.git('ls-files', '--stage');

    const result = await diff(repo.path, base);

    const byPath = Object.fromEntries(result.files.map((file) => [file.path, file]));
    expect(byPath['a.txt']).toEqual({
      path: 'a.txt',
      status: 'modified',
      additions: 2,
      deletions: 1,
      binary: false,
    });
    expect(byPath['gone.txt']).toEqual({
      path: 'gone.txt',
      status: 'deleted',
      additions: 0,
      deletions: 1,
      binary: false,
    });
    expect(byPath['new/untracked.ts']).toMatchObject({ status: 'added', additions: 1, deletions: 0 });
    expect(byPath['new/name.txt']).toEqual({
      path: 'new/name.txt',
      old_path: 'old/name.txt',
      status: 'renamed',
      additions: 0,
      deletions: 0,
      binary: false,
    });
    expect(byPath['image.png']).toEqual({
      path: 'image.png',
      status: 'added',
      additions: 0,
      deletions: 0,
      binary: true,
    });
    expect(Object.keys(byPath).sort()).toEqual([
      'a.txt',
      'gone.txt',
      'image.png',
      'new/name.txt',
      'new/untracked.ts',
    ]);
    expect(result.additions).toBe(3);
    expect(result.deletions).toBe(2);
    expect(result.truncated).toBe(false);
    expect(result.patch).toContain('diff --git a/a.txt b/a.txt');
    expect(result.patch).toContain('+export const x = 1;');
    expect(result.patch).toContain('rename from old/name.txt');
    expect(result.patch).toContain('Binary files /dev/null and b/image.png differ');
    expect(result.patch).not.toContain('noise.log');
    // Reading the working tree leaves the index alone.
    expect(await repo.git('ls-files', '--stage')).toBe(index);
  });

  test('between two snapshots', async () => {
    const before = await snapshot(repo.path, 'before');
    await writeFiles(repo.path, { 'a.txt': 'one\ntwo\nthree\n' });
    const after = await snapshot(repo.path, 'after');

    const result = await diff(repo.path, before, after);

    expect(result.files).toEqual([
      { path: 'a.txt', status: 'modified', additions: 1, deletions: 0, binary: false },
    ]);
    expect(result.patch).toContain('+three');
    expect(await diff(repo.path, after, after)).toMatchObject({
      files: [],
      patch: '',
      additions: 0,
      deletions: 0,
    });
  });

  test('bounds the patch with a marker while keeping every file', async () => {
    await changeEverything();
    const result = await diff(repo.path, base, undefined, { maxPatchBytes: 200 });
    expect(result.truncated).toBe(true);
    expect(result.files).toHaveLength(5);
    expect(result.patch.length).toBeLessThan(400);
    expect(result.patch).toMatch(
      /\[diff truncated: the patch is larger than 200 bytes; the file list is complete\]\n$/,
    );
  });

  test('refuses an unknown base with 422', async () => {
    const error = await rejection(diff(repo.path, 'no-such-ref'));
    expect(error).toMatchObject({ code: 'REPOSITORY_UNUSABLE', status: 422 });
  });
});
