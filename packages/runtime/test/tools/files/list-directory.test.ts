import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextFor, runTool, tempDir, writeFiles } from '../helpers.ts';

describe('list_directory', () => {
  it('lists directories first with a trailing slash, then files, each sorted', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'b.txt': '', 'A.md': '', 'src/x.ts': '', '.hidden': '', 'lib/y.ts': '' });
    await symlink(join(work.path, 'src'), join(work.path, 'src-link'));
    const ctx = await contextFor(work.path);
    expect(await runTool(ctx, 'list_directory', {})).toBe('lib/\nsrc/\nsrc-link/\n.hidden\nA.md\nb.txt');
    expect(await runTool(ctx, 'list_directory', { path: 'src' })).toBe('x.ts');
  });

  it('says when a directory is empty', async () => {
    await using work = await tempDir();
    await mkdir(join(work.path, 'empty'));
    expect(await runTool(await contextFor(work.path), 'list_directory', { path: 'empty' })).toBe(
      '(empty is empty)',
    );
  });

  it('stops at 1000 entries and says how many were left out', async () => {
    await using work = await tempDir();
    await writeFiles(
      work.path,
      Object.fromEntries(Array.from({ length: 1005 }, (_, i) => [`f${String(i).padStart(4, '0')}.txt`, ''])),
    );
    const result = await runTool(await contextFor(work.path), 'list_directory', { path: '.' });
    const lines = result.split('\n');
    expect(lines).toHaveLength(1001);
    expect(lines[999]).toBe('f0999.txt');
    expect(lines[1000]).toBe('... 5 more entries not shown (1005 in total).');
  });

  it('reports a missing directory, a file, and a path outside', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'a.txt': '' });
    const ctx = await contextFor(work.path);
    await expect(runTool(ctx, 'list_directory', { path: 'nope' })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringContaining('Directory not found: nope'),
    });
    await expect(runTool(ctx, 'list_directory', { path: 'a.txt' })).rejects.toMatchObject({
      message: 'a.txt is a file, not a directory. Use read_file to read it.',
    });
    await expect(runTool(ctx, 'list_directory', { path: '..' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
  });
});
