import { open, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextFor, runTool, tempDir, writeFiles } from '../helpers.ts';

describe('read_file', () => {
  it('returns the text with line numbers like cat -n', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'src/a.ts': 'const a = 1;\n\tindented\r\nlast' });
    const ctx = await contextFor(work.path);
    expect(await runTool(ctx, 'read_file', { path: 'src/a.ts' })).toBe(
      '     1\tconst a = 1;\n     2\t\tindented\n     3\tlast',
    );
  });

  it('reads a window with offset and limit and says how to read more', async () => {
    await using work = await tempDir();
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');
    await writeFiles(work.path, { 'ten.txt': `${lines}\n` });
    const ctx = await contextFor(work.path);
    const result = await runTool(ctx, 'read_file', { path: 'ten.txt', offset: 3, limit: 2 });
    expect(result).toBe(
      '     3\tline 3\n     4\tline 4\n\n(Showing lines 3-4 of 10. Call read_file with offset=5 to read more.)',
    );
    expect(await runTool(ctx, 'read_file', { path: 'ten.txt', offset: 10 })).toBe('    10\tline 10');
    await expect(runTool(ctx, 'read_file', { path: 'ten.txt', offset: 11 })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringContaining('Offset 11 is past the end of ten.txt, which has 10 lines'),
    });
  });

  it('shows at most 2000 lines by default and cuts very long lines', async () => {
    await using work = await tempDir();
    const text = Array.from({ length: 2500 }, (_, i) => (i === 0 ? 'x'.repeat(5000) : `l${i + 1}`)).join(
      '\n',
    );
    await writeFiles(work.path, { 'long.txt': text });
    const ctx = await contextFor(work.path);
    const result = await runTool(ctx, 'read_file', { path: 'long.txt' });
    const shown = result.split('\n');
    expect(shown[0]).toBe(`     1\t${'x'.repeat(2000)}… [line cut, 5000 chars]`);
    expect(shown[1999]).toBe('  2000\tl2000');
    expect(result).toContain('(Showing lines 1-2000 of 2500. Call read_file with offset=2001 to read more.)');
    expect(result).not.toContain('l2001');
  });

  it('says so for an empty file', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'empty.txt': '' });
    expect(await runTool(await contextFor(work.path), 'read_file', { path: 'empty.txt' })).toBe(
      '(empty.txt is empty)',
    );
  });

  it('does not show binary files', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, {
      'image.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x03]),
      'latin1.bin': new Uint8Array(Array.from({ length: 300 }, (_, i) => 0x80 + (i % 100))),
    });
    const ctx = await contextFor(work.path);
    expect(await runTool(ctx, 'read_file', { path: 'image.png' })).toBe(
      'Binary file (8 bytes), not shown: image.png',
    );
    expect(await runTool(ctx, 'read_file', { path: 'latin1.bin' })).toBe(
      'Binary file (300 bytes), not shown: latin1.bin',
    );
  });

  it('refuses files over 10 MB with a bounded error', async () => {
    await using work = await tempDir();
    // A sparse file: 11 MB long, written in an instant.
    const handle = await open(join(work.path, 'huge.log'), 'w');
    await handle.truncate(11 * 1024 * 1024);
    await handle.close();
    const error = await runTool(await contextFor(work.path), 'read_file', { path: 'huge.log' }).catch(
      (e) => e,
    );
    expect(error.code).toBe('TOOL_ERROR');
    expect(error.message).toContain('File too large to read: huge.log is 11.0 MB (limit 10.0 MB)');
    expect(error.message.length).toBeLessThan(300);
  });

  it('reports a missing file and suggests list_directory for a directory', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'src/a.ts': '' });
    const ctx = await contextFor(work.path);
    await expect(runTool(ctx, 'read_file', { path: 'nope.ts' })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringContaining('File not found: nope.ts'),
    });
    await expect(runTool(ctx, 'read_file', { path: 'src' })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: 'src is a directory, not a file. Use list_directory to see its contents.',
    });
  });

  it('refuses paths outside the workdir, directly or through a symlink', async () => {
    await using work = await tempDir();
    await using outside = await tempDir();
    await writeFiles(outside.path, { 'secret.txt': 'secret' });
    await symlink(join(outside.path, 'secret.txt'), join(work.path, 'link.txt'));
    const ctx = await contextFor(work.path);
    for (const path of ['../secret.txt', join(outside.path, 'secret.txt'), 'link.txt']) {
      await expect(runTool(ctx, 'read_file', { path })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    }
  });

  it('reads outside the workdir when the read boundary is loose', async () => {
    await using work = await tempDir();
    await using outside = await tempDir();
    await writeFiles(outside.path, { 'doc.txt': 'hello' });
    const ctx = await contextFor(work.path, { strictReadBoundary: false });
    expect(await runTool(ctx, 'read_file', { path: join(outside.path, 'doc.txt') })).toBe('     1\thello');
  });
});
