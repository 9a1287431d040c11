import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DirectoryListingError, listDirectory } from '../src/index.ts';

async function createTempDir() {
  const path = await mkdtemp(join(tmpdir(), 'keel-service-'));
  return { path, [Symbol.asyncDispose]: () => rm(path, { recursive: true, force: true }) };
}

describe('the one directory listing', () => {
  test('directories first, then files, by name with numbers as numbers; links to directories count as them', async () => {
    await using dir = await createTempDir();
    for (const name of ['b10', 'b9', 'repo']) await mkdir(join(dir.path, name));
    await mkdir(join(dir.path, 'repo', '.git'));
    await writeFile(join(dir.path, 'a.txt'), 'x');
    await writeFile(join(dir.path, '.hidden'), 'x');
    await symlink(join(dir.path, 'repo'), join(dir.path, 'linked'));
    const plain = await listDirectory(dir.path);
    expect(plain.entries.map((entry) => [entry.name, entry.is_dir])).toEqual([
      ['b9', true],
      ['b10', true],
      ['linked', true],
      ['repo', true],
      ['a.txt', false],
    ]);
    expect(plain.entries[0]).not.toHaveProperty('is_git_repo');
    expect(plain).toMatchObject({ path: dir.path, total: 5, offset: 0, truncated: false });

    const marked = await listDirectory(dir.path, { gitRepos: true, hidden: true });
    expect(marked.entries.find((entry) => entry.name === 'repo')?.is_git_repo).toBe(true);
    expect(marked.entries.find((entry) => entry.name === 'b9')?.is_git_repo).toBe(false);
    expect(marked.entries.map((entry) => entry.name)).toContain('.hidden');

    const page = await listDirectory(dir.path, { offset: 1, limit: 2 });
    expect(page.entries.map((entry) => entry.name)).toEqual(['b10', 'linked']);
    expect(page).toMatchObject({ total: 5, offset: 1, truncated: true });
  });

  test('a failure says why, for each service to word', async () => {
    await using dir = await createTempDir();
    await writeFile(join(dir.path, 'file'), 'x');
    const reasonOf = (path: string) =>
      listDirectory(path).then(
        () => 'listed',
        (error: unknown) => (error instanceof DirectoryListingError ? error.reason : String(error)),
      );
    expect(await reasonOf(join(dir.path, 'nope'))).toBe('missing');
    expect(await reasonOf(join(dir.path, 'file', 'below'))).toBe('missing');
    expect(await reasonOf(join(dir.path, 'file'))).toBe('not_a_directory');
    expect(await reasonOf(join(dir.path, 'x'.repeat(5000)))).toBe('missing');
  });
});
