import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileHistory } from '../../../src/tools/index.ts';
import { contextFor, runTool, tempDir, writeFiles } from '../helpers.ts';

const source = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', ''].join('\n');

const twoHunks = `--- a/list.txt
+++ b/list.txt
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
@@ -8,3 +8,4 @@
 eight
 nine
+nine and a half
 ten
`;

async function setup(content = source) {
  const work = await tempDir();
  await writeFiles(work.path, { 'list.txt': content });
  const history = new FileHistory();
  const ctx = await contextFor(work.path, {}, undefined, { history });
  const read = () => readFile(join(work.path, 'list.txt'), 'utf8');
  return { work, ctx, history, read };
}

describe('patch', () => {
  it('applies a unified diff with several hunks and records the change', async () => {
    const { work, ctx, history, read } = await setup();
    await using _ = work;
    expect(await runTool(ctx, 'patch', { path: 'list.txt', diff: twoHunks })).toBe(
      'Patched list.txt: applied 2 hunks (+2 -1 lines).',
    );
    expect(await read()).toBe(source.replace('two', 'TWO').replace('nine\n', 'nine\nnine and a half\n'));
    expect(history.list()).toEqual([expect.objectContaining({ tool: 'patch', state: 'applied' })]);
  });

  it('finds a hunk whose line numbers are off', async () => {
    const { work, ctx, read } = await setup(`zero\n${source}`);
    await using _ = work;
    await runTool(ctx, 'patch', { path: 'list.txt', diff: twoHunks });
    expect(await read()).toContain('TWO\nthree');
  });

  it('names the hunk that does not apply and where, and leaves the file untouched', async () => {
    const { work, ctx, history, read } = await setup(source.replace('nine', 'NINE'));
    await using _ = work;
    await expect(runTool(ctx, 'patch', { path: 'list.txt', diff: twoHunks })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message:
        'Hunk 2 of 2 (@@ -8,3 +8,4 @@) does not apply to list.txt: it expects line 9 to be "nine", but it is ' +
        '"NINE" (and the hunk\'s lines were not found nearby either). The file was not changed. Read the file ' +
        'and make the diff against its current content.',
      details: { path: 'list.txt', hunk: 2 },
    });
    expect(await read()).toBe(source.replace('nine', 'NINE'));
    expect(history.list()).toEqual([]);
  });

  it('creates a file from a diff against /dev/null', async () => {
    const { work, ctx, history } = await setup();
    await using _ = work;
    const diff =
      '--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+export const a = 1;\n+export const b = 2;\n';
    expect(await runTool(ctx, 'patch', { path: 'src/new.ts', diff })).toBe(
      'Created src/new.ts: applied 1 hunk (+2 -0 lines).',
    );
    expect(await readFile(join(work.path, 'src/new.ts'), 'utf8')).toBe(
      'export const a = 1;\nexport const b = 2;\n',
    );
    expect(history.list()[0]).toMatchObject({ before: null });
  });

  it('rejects what is not a one-file unified diff', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    await expect(runTool(ctx, 'patch', { path: 'list.txt', diff: 'just some text' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringContaining('The diff has no hunks'),
    });
    const twoFiles = `${twoHunks}--- a/other.txt\n+++ b/other.txt\n@@ -1 +1 @@\n-a\n+b\n`;
    await expect(runTool(ctx, 'patch', { path: 'list.txt', diff: twoFiles })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: 'The diff changes 2 files; patch applies a diff to one file. Call it once per file.',
    });
    await expect(
      runTool(ctx, 'patch', { path: 'missing.txt', diff: '@@ -1 +1 @@\n-a\n+b\n' }),
    ).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringContaining('File not found: missing.txt'),
    });
  });

  it('is confined by the path guard, also through a symlink', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    await using outside = await tempDir();
    await writeFiles(outside.path, { 'list.txt': source });
    await symlink(join(outside.path, 'list.txt'), join(work.path, 'link.txt'));
    for (const path of ['../list.txt', join(outside.path, 'list.txt'), 'link.txt']) {
      await expect(runTool(ctx, 'patch', { path, diff: twoHunks })).rejects.toMatchObject({
        code: 'PERMISSION_DENIED',
      });
    }
    expect(await readFile(join(outside.path, 'list.txt'), 'utf8')).toBe(source);
  });
});
