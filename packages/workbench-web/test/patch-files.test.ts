// The diff viewer's file entries from a real git patch (the service's `git diff` arguments, in a temp
// repository): each file of the list gets its own section, through renames, quoted paths, deletions,
// binary files and the service's 1 MiB cut; lock and generated files are told apart.
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempGitRepo } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import type { RepositoryDiff } from '../src/api/types.ts';
import { fileEntries, isGenerated, isLarge } from '../src/components/patch-files.ts';
import { git } from './harness.ts';

const diffArgs = ['-c', 'core.quotePath=false', 'diff', '--no-color', '--find-renames', '--src-prefix=a/'];

describe('file entries of a patch', () => {
  test('renames, a path git quotes, a deletion, a binary file and a mode change each get their section', async () => {
    await using repo = await createTempGitRepo({
      files: {
        'old name.txt': 'one\ntwo\nthree\nfour\nfive\n',
        'gone.txt': 'bye\n',
        'run.sh': 'echo hi\n',
        'src/a b.js': 'export {};\n',
      },
    });
    git(repo.path, 'mv', 'old name.txt', 'new name.txt');
    rmSync(join(repo.path, 'gone.txt'));
    writeFileSync(join(repo.path, 'tab\there.txt'), 'tabbed\n');
    writeFileSync(join(repo.path, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    writeFileSync(join(repo.path, 'src/a b.js'), 'export const a = 1;\n');
    chmodSync(join(repo.path, 'run.sh'), 0o755);
    git(repo.path, 'add', '-A');
    const patch = git(repo.path, ...diffArgs, '--dst-prefix=b/', '--cached', '--patch');
    const files: RepositoryDiff['files'] = [
      { path: 'gone.txt', status: 'deleted', additions: 0, deletions: 1, binary: false },
      { path: 'logo.png', status: 'added', additions: 0, deletions: 0, binary: true },
      {
        path: 'new name.txt',
        old_path: 'old name.txt',
        status: 'renamed',
        additions: 0,
        deletions: 0,
        binary: false,
      },
      { path: 'run.sh', status: 'modified', additions: 0, deletions: 0, binary: false },
      { path: 'src/a b.js', status: 'modified', additions: 1, deletions: 1, binary: false },
      { path: 'tab\there.txt', status: 'added', additions: 1, deletions: 0, binary: false },
    ];
    const entries = fileEntries({ repository: 'r', files, patch: `${patch}\n`, additions: 2, deletions: 2 });
    expect(entries.map((entry) => [entry.change.path, entry.counted, entry.cut])).toEqual(
      files.map((file) => [file.path, true, 'none']),
    );
    const section = (path: string) => entries.find((entry) => entry.change.path === path)?.patch ?? '';
    expect(section('gone.txt')).toContain('-bye');
    expect(section('logo.png')).toContain('Binary files');
    expect(section('new name.txt')).toContain('rename to new name.txt');
    expect(section('run.sh')).toContain('new mode 100755');
    expect(section('src/a b.js')).toContain('+export const a = 1;');
    expect(section('tab\there.txt')).toContain('+tabbed');
    expect(entries.map((entry) => entry.patch).join('')).toBe(`${patch}\n`);
  });

  test("past the service's cut: the last section is partial, the files after it missing", () => {
    const section = (path: string) =>
      `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,2 @@\n+a\n+b\n`;
    const patch = `${section('a.txt')}${section('b.txt').slice(0, -3)}\n[diff truncated: the patch is larger than 100 bytes; the file list is complete]\n`;
    const files = ['a.txt', 'b.txt', 'c.txt'].map((path) => ({
      path,
      status: 'added' as const,
      additions: 2,
      deletions: 0,
      binary: false,
    }));
    const entries = fileEntries({
      repository: 'r',
      files,
      patch,
      additions: 6,
      deletions: 0,
      truncated: true,
    });
    expect(entries.map((entry) => entry.cut)).toEqual(['none', 'partial', 'missing']);
    expect(entries[1]?.patch).not.toContain('[diff truncated');
    expect(entries[2]?.patch).toBeNull();
  });

  test('lock files and generated output; a diff is large past 50 files or 200,000 characters', () => {
    for (const path of ['package-lock.json', 'web/yarn.lock', 'pnpm-lock.yaml', 'Cargo.lock', 'go.sum']) {
      expect(isGenerated(path), path).toBe(true);
    }
    for (const path of ['poetry.lock', 'app.min.js', 'app.js.map', 'dist/index.js', 'web/build/app.css']) {
      expect(isGenerated(path), path).toBe(true);
    }
    for (const path of ['src/lock.ts', 'src/build.ts', 'distance.js', 'docs/map.md']) {
      expect(isGenerated(path), path).toBe(false);
    }
    const change = { path: 'a', status: 'added' as const, additions: 1, deletions: 0, binary: false };
    const diff = (count: number, patch = '') => ({
      repository: 'r',
      files: Array.from({ length: count }, () => change),
      patch,
      additions: count,
      deletions: 0,
    });
    expect(isLarge(diff(50))).toBe(false);
    expect(isLarge(diff(51))).toBe(true);
    expect(isLarge(diff(1, 'x'.repeat(200_001)))).toBe(true);
  });
});
