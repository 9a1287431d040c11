// Issue #39, item 2: with an editor (`ToolContext.editorFiles`, as `keel acp` gives one) every file tool has
// one view of a file: the editor's text, unsaved changes included.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type EditorFiles, FileHistory, type ToolContext } from '../../../src/tools/index.ts';
import { contextFor, runTool, tempDir, writeFiles } from '../helpers.ts';

/** An editor in memory: its buffers by absolute path, what it was asked, and whether it may write. */
function editor(buffers: Record<string, string>, options: { writes?: boolean; refuse?: string } = {}) {
  const reads: string[] = [];
  const writes: { path: string; text: string }[] = [];
  const files: EditorFiles = {
    async readText(path) {
      reads.push(path);
      if (options.refuse) throw new Error(options.refuse);
      return buffers[path];
    },
    ...(options.writes === false
      ? {}
      : {
          async writeText(path: string, text: string) {
            writes.push({ path, text });
            buffers[path] = text;
          },
        }),
  };
  return { files, reads, writes, buffers };
}

async function setup(
  disk: Record<string, string>,
  buffers: (root: string) => Record<string, string>,
  options = {},
) {
  const work = await tempDir();
  await writeFiles(work.path, disk);
  const view = editor(buffers(work.path), options);
  const ctx: ToolContext = {
    ...(await contextFor(work.path, {}, undefined, { history: new FileHistory() })),
    editorFiles: view.files,
  };
  const onDisk = (path: string) => readFile(join(work.path, path), 'utf8');
  return { work, ctx, view, onDisk, abs: (path: string) => join(work.path, path) };
}

describe('an editor that reads and writes is the one view of every file tool', () => {
  it('edit_file, patch and write_file apply to the unsaved buffer and write it back through the editor', async () => {
    const { work, ctx, view, onDisk, abs } = await setup({ 'a.txt': 'saved\n' }, (root) => ({
      [join(root, 'a.txt')]: 'unsaved one\n',
    }));
    await using _ = work;
    expect(await runTool(ctx, 'edit_file', { path: 'a.txt', old_text: 'one', new_text: 'two' })).toBe(
      'Edited a.txt: replaced 1 occurrence.',
    );
    expect(
      await runTool(ctx, 'patch', { path: 'a.txt', diff: '@@ -1 +1 @@\n-unsaved two\n+patched\n' }),
    ).toBe('Patched a.txt: applied 1 hunk (+1 -1 lines).');
    expect(await runTool(ctx, 'write_file', { path: 'a.txt', content: 'written\n' })).toMatch(
      /^Overwrote a\.txt/,
    );
    expect(view.writes).toEqual([
      { path: abs('a.txt'), text: 'unsaved two\n' },
      { path: abs('a.txt'), text: 'patched\n' },
      { path: abs('a.txt'), text: 'written\n' },
    ]);
    // The disk keeps the user's saved text; saving is the editor's.
    expect(await onDisk('a.txt')).toBe('saved\n');

    // Undo goes through the same view: the buffer gets its text back.
    await runTool(ctx, 'undo_file', { path: 'a.txt' });
    await runTool(ctx, 'undo_file', { path: 'a.txt' });
    await runTool(ctx, 'undo_file', { path: 'a.txt' });
    expect(view.buffers[abs('a.txt')]).toBe('unsaved one\n');
    expect(await onDisk('a.txt')).toBe('saved\n');
  });

  it('a file neither the editor nor the disk has is created through the editor; one only on disk is an error', async () => {
    const { work, ctx, view, abs } = await setup({ 'disk-only.txt': 'x\n' }, () => ({}));
    await using _ = work;
    expect(await runTool(ctx, 'write_file', { path: 'src/new.txt', content: 'new\n' })).toMatch(
      /^Created src\/new\.txt/,
    );
    expect(view.writes).toEqual([{ path: abs('src/new.txt'), text: 'new\n' }]);
    await expect(stat(abs('src/new.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(runTool(ctx, 'read_file', { path: 'missing.txt' })).rejects.toMatchObject({
      message: 'File not found: missing.txt. Check the path with list_directory or glob.',
    });
    await expect(runTool(ctx, 'read_file', { path: 'disk-only.txt' })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringContaining(
        'The editor answered that disk-only.txt was not found, although it exists on disk.',
      ),
    });
  });

  it('a read the editor refuses fails the tool with its words, and nothing is read or written on disk', async () => {
    const { work, ctx, view, onDisk } = await setup({ 'a.txt': 'saved\n' }, () => ({}), {
      refuse: 'Invalid params: Not allowed.',
    });
    await using _ = work;
    for (const [tool, args] of [
      ['read_file', { path: 'a.txt' }],
      ['edit_file', { path: 'a.txt', old_text: 'saved', new_text: 'changed' }],
      ['write_file', { path: 'a.txt', content: 'changed\n' }],
    ] as const) {
      await expect(runTool(ctx, tool, args)).rejects.toMatchObject({
        code: 'TOOL_ERROR',
        message: expect.stringMatching(
          /^The editor refused to read a\.txt: Invalid params: Not allowed\. Keel reads files through the editor and did not read it from disk instead\./,
        ),
      });
    }
    expect(view.writes).toEqual([]);
    expect(await onDisk('a.txt')).toBe('saved\n');
  });
});

describe('an editor that only reads', () => {
  it('refuses a change while its buffer differs from the disk, and lets it through to disk once saved', async () => {
    const { work, ctx, view, onDisk, abs } = await setup(
      { 'a.txt': 'saved\n' },
      (root) => ({ [join(root, 'a.txt')]: 'unsaved\n' }),
      { writes: false },
    );
    await using _ = work;
    expect(await runTool(ctx, 'read_file', { path: 'a.txt' })).toBe('     1\tunsaved');
    for (const [tool, args] of [
      ['edit_file', { path: 'a.txt', old_text: 'unsaved', new_text: 'edited' }],
      ['write_file', { path: 'a.txt', content: 'written\n' }],
      ['patch', { path: 'a.txt', diff: '@@ -1 +1 @@\n-unsaved\n+patched\n' }],
    ] as const) {
      await expect(runTool(ctx, tool, args)).rejects.toMatchObject({
        code: 'TOOL_ERROR',
        details: { reason: 'unsaved_changes' },
        message: expect.stringMatching(
          /^The editor holds unsaved changes to a\.txt.*Ask the user to save a\.txt in the editor/,
        ),
      });
    }
    expect(await onDisk('a.txt')).toBe('saved\n');

    // The user saves: buffer and disk agree, so the edit goes to disk.
    view.buffers[abs('a.txt')] = 'saved\n';
    await runTool(ctx, 'edit_file', { path: 'a.txt', old_text: 'saved', new_text: 'edited' });
    expect(await onDisk('a.txt')).toBe('edited\n');
    // A file neither has is created on disk.
    await runTool(ctx, 'write_file', { path: 'new.txt', content: 'new\n' });
    expect(await onDisk('new.txt')).toBe('new\n');
  });
});
