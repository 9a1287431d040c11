import { describe, expect, it } from 'vitest';
import { fuzzyScore } from '../../../src/tools/index.ts';

function rank(query: string, paths: string[]): string[] {
  return paths
    .map((path) => ({ path, score: fuzzyScore(query, path) }))
    .filter((entry): entry is { path: string; score: number } => entry.score !== null)
    .sort((a, b) => b.score - a.score)
    .map((entry) => entry.path);
}

describe('fuzzyScore', () => {
  it('matches characters in order, case-insensitively, ignoring spaces in the query', () => {
    expect(fuzzyScore('RMD', 'readme.md')).not.toBeNull();
    expect(fuzzyScore('path guard', 'src/path-guard.ts')).not.toBeNull();
    expect(fuzzyScore('draug', 'src/guard.ts')).toBeNull();
    expect(fuzzyScore('xyz', 'src/index.ts')).toBeNull();
  });

  it('prefers consecutive characters over scattered ones', () => {
    expect(rank('abc', ['a-b-c.ts', 'xaxbxc.ts', 'abc.ts'])).toEqual(['abc.ts', 'a-b-c.ts', 'xaxbxc.ts']);
  });

  it('prefers matches in the file name over matches in directory names', () => {
    expect(rank('config', ['config/very/other.ts', 'src/config.ts'])).toEqual([
      'src/config.ts',
      'config/very/other.ts',
    ]);
  });

  it('prefers matches at word starts and camelCase humps', () => {
    expect(rank('pg', ['src/tools/path-guard.ts', 'src/upgrade.ts'])[0]).toBe('src/tools/path-guard.ts');
    expect(rank('fs', ['src/fileSystem.ts', 'src/offset.ts'])[0]).toBe('src/fileSystem.ts');
  });

  it('prefers shorter paths when the match is equally good', () => {
    expect(rank('guard', ['src/tools/deep/guard.ts', 'src/guard.ts'])).toEqual([
      'src/guard.ts',
      'src/tools/deep/guard.ts',
    ]);
  });

  it('ranks the obvious file first in a realistic list', () => {
    const paths = [
      'docs/read/more/examples.md',
      'packages/runtime/src/tools/read-file.ts',
      'README.md',
      'packages/runtime/test/tools/read-file.test.ts',
    ];
    expect(rank('readme', paths)[0]).toBe('README.md');
    expect(rank('readfile', paths).slice(0, 2)).toEqual([
      'packages/runtime/src/tools/read-file.ts',
      'packages/runtime/test/tools/read-file.test.ts',
    ]);
  });
});
