import { chmod, chown, readdir, readFile, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextFor, runTool, tempDir, writeFiles } from '../helpers.ts';

// The file tools replace a file through a temp file and a rename (so a full disk cannot leave it cut short):
// what a user sees of the file must not change otherwise.
describe('file tools replace files whole', () => {
  it('an overwritten file keeps its mode and owner; no temp file is left; a link still points at it', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'run.sh': '#!/bin/sh\necho old\n', 'notes.md': 'old\n' });
    await chmod(join(work.path, 'run.sh'), 0o750);
    if (process.getuid?.() === 0) await chown(join(work.path, 'notes.md'), 65534, 65534);
    await symlink('run.sh', join(work.path, 'link.sh'));
    const ctx = await contextFor(work.path);

    await runTool(ctx, 'write_file', { path: 'link.sh', content: '#!/bin/sh\necho new\n' });
    await runTool(ctx, 'edit_file', { path: 'notes.md', old_text: 'old', new_text: 'new' });

    expect(await readFile(join(work.path, 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho new\n');
    expect((await stat(join(work.path, 'run.sh'))).mode & 0o7777).toBe(0o750);
    expect(await readFile(join(work.path, 'link.sh'), 'utf8')).toBe('#!/bin/sh\necho new\n');
    if (process.getuid?.() === 0) expect((await stat(join(work.path, 'notes.md'))).uid).toBe(65534);
    expect(await readFile(join(work.path, 'notes.md'), 'utf8')).toBe('new\n');
    expect((await readdir(work.path)).sort()).toEqual(['link.sh', 'notes.md', 'run.sh']);
  });

  it('a new file gets the usual mode (0666 less the umask)', async () => {
    await using work = await tempDir();
    const ctx = await contextFor(work.path);
    await runTool(ctx, 'write_file', { path: 'new.txt', content: 'x' });
    const umask = process.umask();
    expect((await stat(join(work.path, 'new.txt'))).mode & 0o777).toBe(0o666 & ~umask);
  });
});
