import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextFor, runTool, tempDir, writeFiles } from '../helpers.ts';

const source = 'function greet() {\n  return "hi";\n}\n\nfunction part() {\n  return "hi";\n}\n';

async function setup(content = source) {
  const work = await tempDir();
  await writeFiles(work.path, { 'src/a.ts': content });
  const ctx = await contextFor(work.path);
  const read = () => readFile(join(work.path, 'src/a.ts'), 'utf8');
  return { work, ctx, read };
}

describe('edit_file', () => {
  it('replaces a unique exact match', async () => {
    const { work, ctx, read } = await setup();
    await using _ = work;
    const result = await runTool(ctx, 'edit_file', {
      path: 'src/a.ts',
      old_text: 'function greet() {\n  return "hi";',
      new_text: 'function greet() {\n  return "hello $&";',
    });
    expect(result).toBe('Edited src/a.ts: replaced 1 occurrence.');
    // `$&` stays literal: no String.replace pattern expansion.
    expect(await read()).toBe(
      'function greet() {\n  return "hello $&";\n}\n\nfunction part() {\n  return "hi";\n}\n',
    );
  });

  it('refuses an ambiguous match with the count, and replaces all with replace_all', async () => {
    const { work, ctx, read } = await setup();
    await using _ = work;
    const args = { path: 'src/a.ts', old_text: 'return "hi";', new_text: 'return "bye";' };
    await expect(runTool(ctx, 'edit_file', args)).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringMatching(
        /old_text occurs 2 times in src\/a\.ts\. Add more surrounding lines .* replace_all/,
      ),
    });
    expect(await read()).toBe(source);
    expect(await runTool(ctx, 'edit_file', { ...args, replace_all: true })).toBe(
      'Edited src/a.ts: replaced 2 occurrences.',
    );
    expect(await read()).toBe(source.replaceAll('"hi"', '"bye"'));
  });

  it('says when old_text is not found, with a hint when only whitespace differs', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    await expect(
      runTool(ctx, 'edit_file', { path: 'src/a.ts', old_text: 'return "nothing";', new_text: 'x' }),
    ).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message:
        'old_text was not found in src/a.ts. Read the file again and copy the exact text, including whitespace.',
    });
    await expect(
      runTool(ctx, 'edit_file', {
        path: 'src/a.ts',
        old_text: 'function greet() {\n    return "hi";',
        new_text: 'x',
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('It does match if whitespace is ignored') });
  });

  it('rejects an empty old_text and an edit that changes nothing', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    await expect(
      runTool(ctx, 'edit_file', { path: 'src/a.ts', old_text: '', new_text: 'x' }),
    ).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringContaining('old_text is empty'),
    });
    await expect(
      runTool(ctx, 'edit_file', { path: 'src/a.ts', old_text: 'greet', new_text: 'greet' }),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMS', message: expect.stringContaining('identical') });
  });

  it('matches text written with \\n in a file with CRLF line ends, keeping CRLF', async () => {
    const { work, ctx, read } = await setup('a\r\nb\r\nc\r\n');
    await using _ = work;
    await runTool(ctx, 'edit_file', { path: 'src/a.ts', old_text: 'a\nb', new_text: 'a\nB\nb' });
    expect(await read()).toBe('a\r\nB\r\nb\r\nc\r\n');
  });

  it('reports a missing file and refuses paths outside', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    await expect(
      runTool(ctx, 'edit_file', { path: 'missing.ts', old_text: 'a', new_text: 'b' }),
    ).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringContaining('File not found: missing.ts'),
    });
    await expect(
      runTool(ctx, 'edit_file', { path: '../a.ts', old_text: 'a', new_text: 'b' }),
    ).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
  });
});
