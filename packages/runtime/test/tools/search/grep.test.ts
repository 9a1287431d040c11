import { open, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextFor, runTool, tempDir, writeFiles } from '../helpers.ts';

describe('grep', () => {
  it('prints path:line: text for every match, paths relative to the workdir', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, {
      'src/a.ts': 'const x = 1;\nexport function foo() {}\n',
      'src/b.js': 'function bar() {}\n',
      'README.md': 'no code here\n',
    });
    const ctx = await contextFor(work.path);
    expect(await runTool(ctx, 'grep', { pattern: 'function \\w+' })).toBe(
      'src/a.ts:2: export function foo() {}\nsrc/b.js:1: function bar() {}',
    );
    expect(await runTool(ctx, 'grep', { pattern: 'FUNCTION', path: 'src/a.ts' })).toBe(
      'No matches for /FUNCTION/ in src/a.ts.',
    );
    expect(await runTool(ctx, 'grep', { pattern: '(?i)FUNCTION', path: 'src/a.ts' })).toBe(
      'src/a.ts:2: export function foo() {}',
    );
  });

  it('filters file names with include globs', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, {
      'src/a.ts': 'hit',
      'src/deep/b.tsx': 'hit',
      'src/c.js': 'hit',
      'top.ts': 'hit',
    });
    const ctx = await contextFor(work.path);
    expect(await runTool(ctx, 'grep', { pattern: 'hit', include: '*.ts' })).toBe(
      'src/a.ts:1: hit\ntop.ts:1: hit',
    );
    expect(await runTool(ctx, 'grep', { pattern: 'hit', path: 'src', include: '**/*.{ts,tsx}' })).toBe(
      'src/a.ts:1: hit\nsrc/deep/b.tsx:1: hit',
    );
    expect(await runTool(ctx, 'grep', { pattern: 'hit', include: '*.py' })).toBe(
      'No matches for /hit/ in the working directory (files matching *.py).',
    );
  });

  it('rejects an invalid regular expression as INVALID_PARAMS', async () => {
    await using work = await tempDir();
    const error = await runTool(await contextFor(work.path), 'grep', { pattern: 'foo(' }).catch((e) => e);
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.message).toMatch(
      /^Invalid regular expression: .*Unterminated group.*escape special characters/,
    );
  });

  it('skips .git, node_modules, .gitignore entries, binary and large files', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, {
      '.gitignore': '# build output\ndist/\n*.log\n/secret.txt\n!keep.log\n',
      'src/a.ts': 'needle',
      'dist/out.js': 'needle',
      'src/dist/nested.js': 'needle',
      'app.log': 'needle',
      'secret.txt': 'needle',
      'docs/secret.txt': 'needle',
      'node_modules/pkg/index.js': 'needle',
      'packages/x/node_modules/y.js': 'needle',
      '.git/HEAD': 'needle',
      'bin.dat': new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1]),
    });
    const big = await open(join(work.path, 'big.txt'), 'w');
    await big.write('needle\n');
    await big.truncate(2 * 1024 * 1024);
    await big.close();
    const ctx = await contextFor(work.path);
    expect(await runTool(ctx, 'grep', { pattern: 'needle' })).toBe(
      'docs/secret.txt:1: needle\nsrc/a.ts:1: needle\n\n(1 file over 1 MB was not searched.)',
    );
    // Naming an ignored directory searches it.
    expect(await runTool(ctx, 'grep', { pattern: 'needle', path: 'dist' })).toBe('dist/out.js:1: needle');
  });

  it('stops at 200 matches and cuts long lines at 300 characters', async () => {
    await using work = await tempDir();
    const lines = Array.from({ length: 250 }, (_, i) => `match ${i + 1} ${'y'.repeat(400)}`).join('\n');
    await writeFiles(work.path, { 'many.txt': lines });
    const result = await runTool(await contextFor(work.path), 'grep', { pattern: 'match' });
    const out = result.split('\n');
    expect(out).toHaveLength(202);
    expect(out[0]).toBe(`many.txt:1: ${`match 1 ${'y'.repeat(400)}`.slice(0, 300)}… [line cut, 408 chars]`);
    expect(out[199]).toMatch(/^many\.txt:200: match 200 /);
    expect(out[201]).toBe('(Stopped at 200 matches. Narrow the pattern, path or include to see the rest.)');
  });

  it('does not follow symlinks that lead outside the workdir', async () => {
    await using work = await tempDir();
    await using outside = await tempDir();
    await writeFiles(outside.path, { 'secret.txt': 'needle' });
    await writeFiles(work.path, { 'inside.txt': 'needle' });
    await symlink(join(outside.path, 'secret.txt'), join(work.path, 'file-link.txt'));
    await symlink(outside.path, join(work.path, 'dir-link'));
    await symlink(join(work.path, 'inside.txt'), join(work.path, 'inner-link.txt'));
    const ctx = await contextFor(work.path, { strictReadBoundary: false });
    expect(await runTool(ctx, 'grep', { pattern: 'needle' })).toBe(
      'inner-link.txt:1: needle\ninside.txt:1: needle',
    );
    await expect(runTool(ctx, 'grep', { pattern: 'x', path: 'missing' })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: 'Path not found: missing. Check the path with list_directory or glob.',
    });
    await expect(
      runTool(await contextFor(work.path), 'grep', { pattern: 'x', path: '..' }),
    ).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
  });

  it('stops with CANCELLED when the signal is aborted', async () => {
    await using work = await tempDir();
    await writeFiles(
      work.path,
      Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`d${i % 20}/f${i}.txt`, 'needle'])),
    );
    const controller = new AbortController();
    const ctx = await contextFor(work.path, {}, controller.signal);
    const pending = runTool(ctx, 'grep', { pattern: 'needle' });
    setImmediate(() => controller.abort());
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED', message: 'The search was cancelled.' });

    const aborted = await contextFor(work.path, {}, AbortSignal.abort());
    await expect(runTool(aborted, 'grep', { pattern: 'needle' })).rejects.toMatchObject({
      code: 'CANCELLED',
    });
  });
});
