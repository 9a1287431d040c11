import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileHistory } from '../../../src/tools/index.ts';
import { contextFor, runTool, tempDir, writeFiles } from '../helpers.ts';

async function setup() {
  const work = await tempDir();
  await writeFiles(work.path, { 'a.txt': 'original\n' });
  const ctx = await contextFor(work.path, {}, undefined, { history: new FileHistory() });
  const read = (path = 'a.txt') => readFile(join(work.path, path), 'utf8');
  return { work, ctx, read };
}

describe('file history: undo_file, redo_file, list_file_changes', () => {
  it('undoes and redoes write_file, edit_file and patch changes in order', async () => {
    const { work, ctx, read } = await setup();
    await using _ = work;
    await runTool(ctx, 'write_file', { path: 'a.txt', content: 'written\n' });
    await runTool(ctx, 'edit_file', { path: 'a.txt', old_text: 'written', new_text: 'edited' });
    await runTool(ctx, 'patch', { path: 'a.txt', diff: '@@ -1 +1 @@\n-edited\n+patched\n' });
    expect(await read()).toBe('patched\n');

    expect(await runTool(ctx, 'undo_file', { path: 'a.txt' })).toBe(
      'Undid change #3 (patch) to a.txt: restored the content before it.',
    );
    expect(await read()).toBe('edited\n');
    await runTool(ctx, 'undo_file', { path: 'a.txt' });
    expect(await read()).toBe('written\n');
    await runTool(ctx, 'undo_file', { path: 'a.txt' });
    expect(await read()).toBe('original\n');
    await expect(runTool(ctx, 'undo_file', { path: 'a.txt' })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: 'There is no change to a.txt to undo. list_file_changes shows what was changed.',
    });

    expect(await runTool(ctx, 'redo_file', { path: 'a.txt' })).toBe('Redid change #1 (write_file) to a.txt.');
    expect(await read()).toBe('written\n');
    await runTool(ctx, 'redo_file', { path: 'a.txt' });
    expect(await read()).toBe('edited\n');
    expect(await runTool(ctx, 'list_file_changes', {})).toBe(
      [
        'File changes, oldest first:',
        '#1 write_file: overwrote a.txt (+1 -1 lines)',
        '#2 edit_file: edited a.txt (+1 -1 lines)',
        '#3 patch: edited a.txt (+1 -1 lines) [undone]',
      ].join('\n'),
    );
  });

  it('deletes a file the run created on undo, and a new change drops what could be redone', async () => {
    const { work, ctx, read } = await setup();
    await using _ = work;
    await runTool(ctx, 'write_file', { path: 'new/b.txt', content: 'b\n' });
    expect(await runTool(ctx, 'undo_file', { path: 'new/b.txt' })).toBe(
      'Undid change #1 (write_file) to new/b.txt: deleted the file it had created.',
    );
    await expect(stat(join(work.path, 'new/b.txt'))).rejects.toMatchObject({ code: 'ENOENT' });

    await runTool(ctx, 'write_file', { path: 'new/b.txt', content: 'again\n' });
    await expect(runTool(ctx, 'redo_file', { path: 'new/b.txt' })).rejects.toMatchObject({
      message: 'There is no undone change to new/b.txt to redo.',
    });
    expect(await read('new/b.txt')).toBe('again\n');
    expect(await runTool(ctx, 'list_file_changes', {})).toBe(
      'File changes, oldest first:\n#2 write_file: created new/b.txt (+1 -0 lines)',
    );
  });

  it('refuses to undo over a file changed since, by a command or by hand', async () => {
    const { work, ctx, read } = await setup();
    await using _ = work;
    await runTool(ctx, 'edit_file', { path: 'a.txt', old_text: 'original', new_text: 'edited' });
    await writeFiles(work.path, { 'a.txt': 'changed by hand\n' });
    await expect(runTool(ctx, 'undo_file', { path: 'a.txt' })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringContaining('a.txt has changed since change #1'),
    });
    expect(await read()).toBe('changed by hand\n');
  });

  it('keeps the undo history per file, and refuses paths outside the workdir', async () => {
    const { work, ctx, read } = await setup();
    await using _ = work;
    await runTool(ctx, 'write_file', { path: 'a.txt', content: 'a2\n' });
    await runTool(ctx, 'write_file', { path: 'b.txt', content: 'b1\n' });
    await runTool(ctx, 'undo_file', { path: 'a.txt' });
    expect(await read()).toBe('original\n');
    expect(await read('b.txt')).toBe('b1\n');
    await expect(runTool(ctx, 'undo_file', { path: '../a.txt' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
  });

  it('says so when the context keeps no history', async () => {
    await using work = await tempDir();
    const ctx = await contextFor(work.path);
    await expect(runTool(ctx, 'list_file_changes', {})).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: 'File history is not kept in this context, so there is nothing to undo or redo.',
    });
  });
});

describe('FileHistory limits', () => {
  it('forgets the oldest changes beyond its count and byte limits, keeping the newest', () => {
    const history = new FileHistory({ maxChanges: 2, maxBytes: 10 });
    const bytes = (text: string) => Buffer.from(text);
    history.record({ tool: 'write_file', path: '/w/a', before: null, after: bytes('1') });
    history.record({ tool: 'write_file', path: '/w/b', before: null, after: bytes('2') });
    history.record({ tool: 'write_file', path: '/w/c', before: null, after: bytes('3') });
    expect(history.list().map((change) => change.id)).toEqual([2, 3]);
    history.record({ tool: 'write_file', path: '/w/d', before: null, after: bytes('a long content') });
    expect(history.list().map((change) => change.id)).toEqual([4]);
  });
});
