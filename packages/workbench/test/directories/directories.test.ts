import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type Body, startWorkbench, tempDir } from '../harness.ts';

describe('GET /api/directories', () => {
  test('lists directories first, marks git repositories, hides dot entries unless asked', async () => {
    await using wb = await startWorkbench([]);
    const root = tempDir('browse');
    mkdirSync(join(root, 'zeta-repo', '.git'), { recursive: true });
    mkdirSync(join(root, 'alpha'));
    mkdirSync(join(root, '.hidden'));
    writeFileSync(join(root, 'notes.txt'), 'x');
    symlinkSync(join(root, 'zeta-repo'), join(root, 'linked-repo'));

    const listing = await wb.api('GET', `/api/directories?path=${encodeURIComponent(root)}`);
    expect(listing.status).toBe(200);
    expect(listing.body.path).toBe(root);
    expect(listing.body.parent).toBe(join(root, '..'));
    expect(listing.body.entries.map((entry: Body) => [entry.name, entry.is_dir, entry.is_git_repo])).toEqual([
      ['alpha', true, false],
      ['linked-repo', true, true],
      ['zeta-repo', true, true],
      ['notes.txt', false, false],
    ]);
    expect(listing.body.entries[0].path).toBe(join(root, 'alpha'));

    const hidden = await wb.api('GET', `/api/directories?path=${encodeURIComponent(root)}&hidden=true`);
    expect(hidden.body.entries.map((entry: Body) => entry.name)).toContain('.hidden');
  });

  test('a folder of 2,500 sub-folders lists 2,000 in order, says how many there are, and gives the rest as the next page', {
    timeout: 30_000,
  }, async () => {
    await using wb = await startWorkbench([]);
    const root = tempDir('many');
    for (let i = 0; i < 2500; i++) mkdirSync(join(root, `dir-${i}`));
    mkdirSync(join(root, 'dir-7', '.git'));
    writeFileSync(join(root, 'a-file.txt'), 'x');
    const listing = await wb.api('GET', `/api/directories?path=${encodeURIComponent(root)}`);
    expect(listing.status).toBe(200);
    expect(listing.body).toMatchObject({ total: 2501, truncated: true });
    expect(listing.body.entries).toHaveLength(2000);
    // Directories first, in natural order (dir-2 before dir-10); the file is beyond the cut.
    const names = listing.body.entries.map((entry: Body) => entry.name);
    expect(names.slice(0, 3)).toEqual(['dir-0', 'dir-1', 'dir-2']);
    expect(names).not.toContain('a-file.txt');
    expect(listing.body.entries.find((entry: Body) => entry.name === 'dir-7').is_git_repo).toBe(true);
    const small = await wb.api('GET', `/api/directories?path=${encodeURIComponent(join(root, 'dir-7'))}`);
    expect(small.body).toMatchObject({ total: 0, truncated: false, entries: [] });

    // The next page from where this one ended: the rest, the file last, nothing twice.
    const next = await wb.api('GET', `/api/directories?path=${encodeURIComponent(root)}&offset=2000`);
    expect(next.body).toMatchObject({ total: 2501, offset: 2000, truncated: false });
    const rest = next.body.entries.map((entry: Body) => entry.name);
    expect(rest).toHaveLength(501);
    expect(rest.at(-1)).toBe('a-file.txt');
    expect(new Set([...names, ...rest]).size).toBe(2501);
    const past = await wb.api('GET', `/api/directories?path=${encodeURIComponent(root)}&offset=9000`);
    expect(past.body).toMatchObject({ total: 2501, offset: 9000, truncated: false, entries: [] });
    for (const offset of ['-1', 'x', '1.5']) {
      const bad = await wb.api('GET', `/api/directories?path=${encodeURIComponent(root)}&offset=${offset}`);
      expect(bad.status).toBe(400);
    }
  });

  test('defaults to the home directory; the root has no parent', async () => {
    await using wb = await startWorkbench([]);
    expect((await wb.api('GET', '/api/directories')).body.path).toBe(homedir());
    expect((await wb.api('GET', '/api/directories?path=/')).body.parent).toBeNull();
  });

  test('a missing path is 404, a file is 400, a bad query is 400, all in the error shape', async () => {
    await using wb = await startWorkbench([]);
    const root = tempDir('browse');
    writeFileSync(join(root, 'file.txt'), 'x');
    const missing = await wb.api('GET', `/api/directories?path=${encodeURIComponent(join(root, 'nope'))}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('DIRECTORY_NOT_FOUND');
    const file = await wb.api('GET', `/api/directories?path=${encodeURIComponent(join(root, 'file.txt'))}`);
    expect(file.status).toBe(400);
    expect(file.body.error.code).toBe('NOT_A_DIRECTORY');
    const bad = await wb.api('GET', '/api/directories?hidden=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PARAMS');
  });
});
