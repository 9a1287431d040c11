import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextFor, runTool, tempDir, writeFiles } from '../helpers.ts';

async function touch(root: string, rel: string, secondsAgo: number): Promise<void> {
  const time = new Date(Date.now() - secondsAgo * 1000);
  await utimes(join(root, rel), time, time);
}

describe('glob', () => {
  it('lists matching files newest first', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, {
      'src/old.ts': '',
      'src/new.ts': '',
      'src/mid/x.ts': '',
      'src/readme.md': '',
    });
    await touch(work.path, 'src/old.ts', 300);
    await touch(work.path, 'src/mid/x.ts', 200);
    await touch(work.path, 'src/new.ts', 100);
    const ctx = await contextFor(work.path);
    expect(await runTool(ctx, 'glob', { pattern: '**/*.ts' })).toBe('src/new.ts\nsrc/mid/x.ts\nsrc/old.ts');
    await touch(work.path, 'src/old.ts', 0);
    expect(await runTool(ctx, 'glob', { pattern: '**/*.ts' })).toBe('src/old.ts\nsrc/new.ts\nsrc/mid/x.ts');
  });

  it('matches the pattern relative to path, with * staying within one directory', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'src/a.ts': '', 'src/b.tsx': '', 'src/deep/c.ts': '', 'top.ts': '' });
    const ctx = await contextFor(work.path);
    expect(await runTool(ctx, 'glob', { pattern: '*.ts', path: 'src' })).toBe('src/a.ts');
    expect(
      (await runTool(ctx, 'glob', { pattern: './**/*.{ts,tsx}', path: 'src' })).split('\n').sort(),
    ).toEqual(['src/a.ts', 'src/b.tsx', 'src/deep/c.ts']);
    expect(await runTool(ctx, 'glob', { pattern: '*.py' })).toBe(
      'No files match *.py in the working directory.',
    );
  });

  it('skips ignored directories', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, {
      '.gitignore': 'build/\n',
      'a.js': '',
      'build/b.js': '',
      'node_modules/c.js': '',
    });
    expect(await runTool(await contextFor(work.path), 'glob', { pattern: '**/*.js' })).toBe('a.js');
  });

  it('stops at 500 files and says so', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, Object.fromEntries(Array.from({ length: 510 }, (_, i) => [`f${i}.txt`, ''])));
    const lines = (await runTool(await contextFor(work.path), 'glob', { pattern: '*.txt' })).split('\n');
    expect(lines).toHaveLength(502);
    expect(lines[501]).toBe('(Showing the 500 newest of 510 files. Narrow the pattern to see the rest.)');
  });

  it('rejects absolute patterns, file paths and paths outside', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'a.ts': '' });
    const ctx = await contextFor(work.path);
    await expect(runTool(ctx, 'glob', { pattern: '/etc/*' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
    });
    await expect(runTool(ctx, 'glob', { pattern: '*', path: 'a.ts' })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: 'a.ts is a file; give a directory as path.',
    });
    await expect(runTool(ctx, 'glob', { pattern: '*', path: '../..' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
  });
});
