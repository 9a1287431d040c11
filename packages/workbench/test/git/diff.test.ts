import { chmod, readFile, rm, stat, symlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { TempGitRepo } from '@keel/testkit';
import { createTempGitRepo } from '@keel/testkit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { diff, snapshot } from '../../src/git/index.ts';
import { git, rejection, writeFiles } from './helpers.ts';

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

  test('reads the working tree without writing the index or any object', async () => {
    await changeEverything();
    await repo.git('add', 'a.txt');
    const indexFile = join(repo.path, '.git', 'index');
    const [bytes, { mtimeMs }] = [await readFile(indexFile), await stat(indexFile)];
    // The one object git writes: the empty blob, which intent-to-add entries name.
    await writeFiles(repo.path, { '.git/empty': '' });
    await repo.git('hash-object', '-w', '--', '.git/empty');
    const objects = await repo.git('count-objects', '-v');

    await diff(repo.path, base);

    expect(await readFile(indexFile)).toEqual(bytes);
    expect((await stat(indexFile)).mtimeMs).toBe(mtimeMs);
    // Nothing hashed into the store: the changed and untracked files are read where they are.
    expect(await repo.git('count-objects', '-v')).toBe(objects);
  });
});

/** The working tree's diff must be exactly the diff to the tree `snapshot()` records of the same state. */
describe('diff of the working tree equals the diff to its snapshot', () => {
  async function expectSameAsSnapshot(maxPatchBytes?: number): Promise<void> {
    const options = maxPatchBytes === undefined ? {} : { maxPatchBytes };
    const live = await diff(repo.path, base, undefined, options);
    const recorded = await diff(repo.path, base, await snapshot(repo.path), options);
    expect(live).toEqual(recorded);
    expect(live.files.length).toBeGreaterThan(0);
  }

  test('untracked, ignored, deleted, renamed, binary and modified files, whole and truncated', async () => {
    await changeEverything();
    await expectSameAsSnapshot();
    await expectSameAsSnapshot(300);
  });

  test('whatever the real index holds: staged, staged then changed, staged then deleted, untracked again', async () => {
    await writeFiles(repo.path, { 'a.txt': 'staged\n', 'staged-new.txt': 'new\n', 'staged-gone.txt': 'x\n' });
    await repo.git('add', 'a.txt', 'staged-new.txt', 'staged-gone.txt');
    await writeFiles(repo.path, { 'a.txt': 'staged\nthen changed\n' });
    await rm(join(repo.path, 'staged-gone.txt'));
    await repo.git('rm', '-q', '--cached', 'gone.txt');
    await writeFiles(repo.path, { 'intent.txt': 'intent\n' });
    await repo.git('add', '--intent-to-add', 'intent.txt');
    // Touched, not changed: its stat data no longer matches the index, its content does.
    const later = new Date(Date.now() + 60_000);
    await utimes(join(repo.path, 'old/name.txt'), later, later);
    await expectSameAsSnapshot();
    expect((await diff(repo.path, base)).files.map((file) => file.path)).not.toContain('old/name.txt');
  });

  test('unusual names, modes, links, an ignored tracked file and an embedded repository', async () => {
    await writeFiles(repo.path, {
      'with space.txt': 'a\n',
      'ünïcödé.txt': 'b\n',
      'tab\tin name.txt': 'c\n',
      ':colon.txt': 'd\n',
      '1\t2\tthree.txt': 'e\n',
      'tracked.log': 'tracked although ignored\n',
    });
    await repo.git('add', '-f', 'tracked.log');
    await repo.git('commit', '-qm', 'more');
    base = (await repo.git('rev-parse', 'HEAD')).trim();
    await writeFiles(repo.path, { 'tracked.log': 'changed\n', 'with space.txt': 'a\nb\n' });
    await chmod(join(repo.path, 'a.txt'), 0o755);
    await rm(join(repo.path, 'ünïcödé.txt'));
    await symlink('a.txt', join(repo.path, 'ünïcödé.txt'));
    await symlink('old/name.txt', join(repo.path, 'link'));
    await writeFiles(repo.path, { 'nested/inner.txt': 'inner\n' });
    await git(join(repo.path, 'nested'), 'init', '-q');
    await git(join(repo.path, 'nested'), 'add', '.');
    await git(
      join(repo.path, 'nested'),
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '-qm',
      'inner',
    );
    await writeFiles(repo.path, { 'nested/dirty.txt': 'uncommitted in the embedded repository\n' });
    await expectSameAsSnapshot();
    const paths = (await diff(repo.path, base)).files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['tab\tin name.txt', '1\t2\tthree.txt', ':colon.txt']));
  });

  test('a merge conflict left in the index', async () => {
    await repo.git('checkout', '-q', '-b', 'other');
    await writeFiles(repo.path, { 'a.txt': 'other\n' });
    await repo.git('commit', '-qam', 'other');
    await repo.git('checkout', '-q', 'main');
    await writeFiles(repo.path, { 'a.txt': 'main\n' });
    await repo.git('commit', '-qam', 'main');
    await repo.git('merge', '-q', 'other').catch(() => undefined);
    expect(await repo.git('ls-files', '--unmerged')).not.toBe('');
    await expectSameAsSnapshot();
  });
});
