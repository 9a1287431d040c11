import { describe, expect, it } from 'vitest';
import { contextFor, runTool, tempDir, writeFiles } from '../helpers.ts';

describe('search_files', () => {
  it('ranks the best fuzzy matches first', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, {
      'packages/runtime/src/tools/path-guard.ts': '',
      'packages/runtime/test/tools/path-guard.test.ts': '',
      'docs/patterns/high-guard.md': '',
      'src/upgrade.ts': '',
      'README.md': '',
    });
    const ctx = await contextFor(work.path);
    const result = await runTool(ctx, 'search_files', { query: 'pathguard' });
    expect(result.split('\n')).toEqual([
      'packages/runtime/src/tools/path-guard.ts',
      'packages/runtime/test/tools/path-guard.test.ts',
      'docs/patterns/high-guard.md',
    ]);
    expect((await runTool(ctx, 'search_files', { query: 'readme' })).split('\n')[0]).toBe('README.md');
  });

  it('searches under path, shows paths relative to the workdir, and skips ignored files', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, {
      '.gitignore': 'generated/\n',
      'src/config.ts': '',
      'src/generated/config.ts': '',
      'node_modules/config/index.js': '',
      'config.json': '',
    });
    const ctx = await contextFor(work.path);
    expect(await runTool(ctx, 'search_files', { query: 'config', path: 'src' })).toBe('src/config.ts');
    expect(await runTool(ctx, 'search_files', { query: 'zzz' })).toBe(
      'No files match "zzz" in the working directory.',
    );
  });

  it('shows at most 50 results', async () => {
    await using work = await tempDir();
    await writeFiles(
      work.path,
      Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`item-${i}.txt`, ''])),
    );
    const lines = (await runTool(await contextFor(work.path), 'search_files', { query: 'item' })).split('\n');
    expect(lines).toHaveLength(52);
    expect(lines[51]).toBe('(Showing the best 50 of 60 matches. Refine the query to narrow them.)');
  });

  it('requires a non-empty query', async () => {
    await using work = await tempDir();
    await expect(runTool(await contextFor(work.path), 'search_files', { query: '' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
    });
  });
});
