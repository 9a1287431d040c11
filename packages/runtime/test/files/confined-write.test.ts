// Writes that cannot be raced (issue #22, item 7): a folder swapped for a symbolic link to an outside
// folder at the critical moment (after the path guard's check, just before the file tools create or
// delete a file) must not send the write or the delete outside. The swap is made deterministically,
// from inside the very `open`/`unlink` call the tools make.
import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileHistory } from '../../src/tools/index.ts';
import { contextFor, runTool, tempDir, writeFiles } from '../tools/helpers.ts';

/** Runs once, inside the next matching call, before the real one: the attacker's move. */
const race: { open?: () => Promise<void>; unlink?: () => Promise<void> } = {};

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const take = async (key: 'open' | 'unlink') => {
    const move = race[key];
    race[key] = undefined;
    await move?.();
  };
  return {
    ...actual,
    open: async (...args: Parameters<typeof actual.open>) => {
      if (args[1] === 'wx' && String(args[0]).endsWith('.tmp')) await take('open');
      return actual.open(...args);
    },
    unlink: async (path: Parameters<typeof actual.unlink>[0]) => {
      if (!String(path).endsWith('.tmp')) await take('unlink');
      return actual.unlink(path);
    },
  };
});

afterEach(() => {
  race.open = undefined;
  race.unlink = undefined;
});

/** Moves `dir` aside and puts a symbolic link to `outside` in its place. */
const swap = (dir: string, outside: string) => async () => {
  await fs.rename(dir, `${dir}-moved`);
  await fs.symlink(outside, dir);
};

describe('file tool writes under a racing symlink swap', () => {
  it('write_file never creates or replaces a file outside when its folder becomes a link mid-write', async () => {
    await using work = await tempDir();
    await using outside = await tempDir('keel-outside-');
    await writeFiles(work.path, { 'sub/notes.txt': 'old\n' });
    await writeFiles(outside.path, { 'notes.txt': 'victim\n' });
    const ctx = await contextFor(work.path);
    for (const path of ['sub/notes.txt', 'sub/new.txt']) {
      race.open = swap(join(work.path, 'sub'), outside.path);
      await expect(runTool(ctx, 'write_file', { path, content: 'evil\n' }), path).rejects.toMatchObject({
        code: 'PERMISSION_DENIED',
        message: expect.stringContaining('changed while'),
      });
      expect(race.open).toBeUndefined(); // the swap did happen
      expect(await fs.readdir(outside.path)).toEqual(['notes.txt']);
      expect(await fs.readFile(join(outside.path, 'notes.txt'), 'utf8')).toBe('victim\n');
      // Nothing half-done left in the folder that was moved either: no temp file, old content whole.
      expect(await fs.readdir(join(work.path, 'sub-moved'))).toEqual(['notes.txt']);
      expect(await fs.readFile(join(work.path, 'sub-moved/notes.txt'), 'utf8')).toBe('old\n');
      await fs.unlink(join(work.path, 'sub'));
      await fs.rename(join(work.path, 'sub-moved'), join(work.path, 'sub'));
    }
  });

  it('edit_file and patch are refused the same way', async () => {
    await using work = await tempDir();
    await using outside = await tempDir('keel-outside-');
    await writeFiles(work.path, { 'sub/a.txt': 'one\n' });
    await writeFiles(outside.path, { 'a.txt': 'one\n' });
    const ctx = await contextFor(work.path);
    race.open = swap(join(work.path, 'sub'), outside.path);
    await expect(
      runTool(ctx, 'edit_file', { path: 'sub/a.txt', old_text: 'one', new_text: 'two' }),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await fs.unlink(join(work.path, 'sub'));
    await fs.rename(join(work.path, 'sub-moved'), join(work.path, 'sub'));
    race.open = swap(join(work.path, 'sub'), outside.path);
    await expect(
      runTool(ctx, 'patch', { path: 'sub/a.txt', diff: '@@ -1 +1 @@\n-one\n+two\n' }),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(await fs.readdir(outside.path)).toEqual(['a.txt']);
    expect(await fs.readFile(join(outside.path, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('refuses a parent folder that is already a link planted after the check, and makes no folder outside', async () => {
    await using work = await tempDir();
    await using outside = await tempDir('keel-outside-');
    await fs.mkdir(join(work.path, 'sub'));
    const ctx = await contextFor(work.path);
    // The guard resolved sub/deep/x.txt inside; then sub becomes a link before any folder is made.
    const resolve = ctx.guard.resolve.bind(ctx.guard);
    ctx.guard.resolve = async (path, mode) => {
      const real = await resolve(path, mode);
      await swap(join(work.path, 'sub'), outside.path)();
      return real;
    };
    await expect(
      runTool(ctx, 'write_file', { path: 'sub/deep/x.txt', content: 'evil' }),
    ).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect(await fs.readdir(outside.path)).toEqual([]);
  });

  it('undo_file deletes the file it created, never one outside reached through a swapped folder', async () => {
    await using work = await tempDir();
    await using outside = await tempDir('keel-outside-');
    await fs.mkdir(join(work.path, 'sub'));
    await writeFiles(outside.path, { 'made.txt': 'victim\n' });
    const ctx = await contextFor(work.path, {}, undefined, { history: new FileHistory() });
    await runTool(ctx, 'write_file', { path: 'sub/made.txt', content: 'victim\n' });
    race.unlink = swap(join(work.path, 'sub'), outside.path);
    await runTool(ctx, 'undo_file', { path: 'sub/made.txt' }).catch(() => undefined);
    expect(race.unlink).toBeUndefined();
    expect(await fs.readFile(join(outside.path, 'made.txt'), 'utf8')).toBe('victim\n');
  });
});
