// The changed files in a commit-message prompt stay a few kilobytes for any number of files (issue #28: a
// 5,000-file change made a 383 KB prompt, past a 128k-token model at 6-8k files).
import { describe, expect, test } from 'vitest';
import type { FileChange } from '../../src/git/index.ts';
import { changeSummary } from '../../src/tasks/change-summary.ts';

const file = (path: string, additions = 1): FileChange => ({
  path,
  status: 'added',
  additions,
  deletions: 0,
  binary: false,
});

describe('changeSummary', () => {
  test('a few files: one line each, with the repository', () => {
    expect(changeSummary([{ repository: 'app', files: [file('src/a.ts', 3), file('README.md')] }])).toBe(
      '- app/src/a.ts (added, +3 -0)\n- app/README.md (added, +1 -0)',
    );
    expect(changeSummary([{ repository: 'app', files: [] }])).toBe('(no changes)');
  });

  test('5,000 files: their folders, largest first, every file counted, under 200 lines', () => {
    const files = [
      ...Array.from({ length: 4000 }, (_, i) => file(`src/gen/part${i % 40}/f${i}.ts`, 2)),
      ...Array.from({ length: 990 }, (_, i) => file(`docs/page${i}.md`)),
      ...Array.from({ length: 10 }, (_, i) => file(`top${i}.txt`)),
    ];
    const summary = changeSummary([{ repository: 'app', files }]);
    const lines = summary.split('\n');
    expect(lines.length).toBeLessThanOrEqual(200);
    expect(summary.length).toBeLessThan(20_000);
    expect(lines[0]).toBe('5,000 files changed (+9,000 -0), by folder:');
    // The deepest grouping that fits: docs/ holds 990 files directly, so the top folders, then the files
    // at the top.
    expect(lines.slice(1, 3)).toEqual([
      '- app/src/ (4,000 files, +8,000 -0)',
      '- app/docs/ (990 files, +990 -0)',
    ]);
    expect(lines).toContain('- app/top0.txt (+1 -0)');
    const counted = lines
      .slice(1)
      .map((line) => Number(line.match(/\(([\d,]+) files/)?.[1]?.replaceAll(',', '') ?? 1))
      .reduce((sum, count) => sum + count, 0);
    expect(counted).toBe(5000);
  });

  test('more folders than lines: the largest ones, and how many were left out', () => {
    const files = Array.from({ length: 3000 }, (_, i) => file(`m${i}/index.ts`));
    const lines = changeSummary([{ repository: 'app', files }], 50).split('\n');
    expect(lines).toHaveLength(51);
    expect(lines.at(-1)).toBe('- … 2951 more folders');
  });
});
