import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextFor, runTool, tempDir, writeFiles } from '../helpers.ts';

describe('write_file', () => {
  it('creates parent directories and confirms with the byte and line count', async () => {
    await using work = await tempDir();
    const ctx = await contextFor(work.path);
    const result = await runTool(ctx, 'write_file', { path: 'a/b/c.txt', content: 'héllo\nworld\n' });
    expect(result).toBe('Created a/b/c.txt (13 bytes, 2 lines).');
    expect(await readFile(join(work.path, 'a/b/c.txt'), 'utf8')).toBe('héllo\nworld\n');
  });

  it('overwrites an existing file and says so', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'x.txt': 'old content' });
    const ctx = await contextFor(work.path);
    expect(await runTool(ctx, 'write_file', { path: 'x.txt', content: 'new' })).toBe(
      'Overwrote x.txt (3 bytes, 1 line).',
    );
    expect(await readFile(join(work.path, 'x.txt'), 'utf8')).toBe('new');
  });

  it('refuses to write over a directory or below a file', async () => {
    await using work = await tempDir();
    await mkdir(join(work.path, 'dir'));
    await writeFiles(work.path, { 'file.txt': '' });
    const ctx = await contextFor(work.path);
    await expect(runTool(ctx, 'write_file', { path: 'dir', content: 'x' })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: 'dir is a directory; give the path of a file inside it.',
    });
    await expect(
      runTool(ctx, 'write_file', { path: 'file.txt/inner.txt', content: 'x' }),
    ).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringContaining('parent paths is a file'),
    });
  });

  it('refuses writes outside the workdir, also through a symlinked parent, and leaves nothing behind', async () => {
    await using work = await tempDir();
    await using outside = await tempDir();
    await symlink(outside.path, join(work.path, 'escape'));
    const ctx = await contextFor(work.path, { strictReadBoundary: false });
    for (const path of ['../x.txt', join(outside.path, 'x.txt'), 'escape/x.txt', 'escape/new/dir/x.txt']) {
      await expect(runTool(ctx, 'write_file', { path, content: 'x' })).rejects.toMatchObject({
        code: 'PERMISSION_DENIED',
      });
    }
    await expect(readFile(join(outside.path, 'x.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('writes into an allowed root', async () => {
    await using work = await tempDir();
    await using extra = await tempDir();
    const ctx = await contextFor(work.path, { allowedRoots: [extra.path] });
    const target = join(extra.path, 'notes.md');
    expect(await runTool(ctx, 'write_file', { path: target, content: '' })).toBe(
      `Created ${target} (0 bytes, 0 lines).`,
    );
  });
});
