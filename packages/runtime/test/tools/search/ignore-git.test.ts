// The walker's ignore rules against git itself: a real repository with nested .gitignore files, negations,
// anchored and dir-only patterns, escapes and directories that cannot be re-included. What the walker lists
// must be exactly what `git ls-files --others --exclude-standard` lists, and what it leaves out exactly
// what `git check-ignore` reports.
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { createTempGitRepo, type TempGitRepo } from '@keel/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPathGuard, loadIgnoreRules, walkFiles } from '../../../src/tools/index.ts';

const files: Record<string, string> = {
  '.gitignore': [
    '# logs, except one',
    '*.log',
    '!keep.log',
    'build/',
    '/root-only.txt',
    'docs/**/*.tmp',
    'temp*',
    '!temp-keep/',
    'secret/',
    '!secret/allowed.txt',
    '\\#hash.txt',
    '\\!bang.txt',
    'trailing.txt   ',
    '*.bak',
    '**/cache/',
    'gen/**',
    '!gen/keep.txt',
  ].join('\n'),
  'a.log': '',
  'keep.log': '',
  'build.txt': '',
  'build/out.js': '',
  'root-only.txt': '',
  'docs/c.tmp': '',
  'docs/a/b/c.tmp': '',
  'docs/readme.md': '',
  'other/docs/c.tmp': '',
  'temp1.txt': '',
  'tempdir/x.txt': '',
  'temp-keep/y.txt': '',
  'secret/allowed.txt': '',
  'secret/other.txt': '',
  '#hash.txt': '',
  '!bang.txt': '',
  'trailing.txt': '',
  'important.bak': '',
  'x/cache/c.txt': '',
  'cache.txt': '',
  'gen/a.txt': '',
  'gen/keep.txt': '',
  '.hidden/file.txt': '',
  '.env': '',
  'local.txt': '',
  'sub/.gitignore': ['!*.log', '/local.txt', 'nested/', '!important.bak', 'space\\ ', '*.tmp'].join('\r\n'),
  'sub/a.log': '',
  'sub/deep/b.log': '',
  'sub/local.txt': '',
  'sub/deeper/local.txt': '',
  'sub/nested/z.txt': '',
  'sub/x/nested/z.txt': '',
  'sub/important.bak': '',
  'sub/other.bak': '',
  'sub/space ': '',
  'sub/build/y.js': '',
  'sub/deeper/.gitignore': ['!build/', '*.txt', '!keep.txt', '!/x.tmp'].join('\n'),
  'sub/deeper/build/k.js': '',
  'sub/deeper/a.txt': '',
  'sub/deeper/keep.txt': '',
  'sub/deeper/x.tmp': '',
  'sub/deeper/y.tmp': '',
  'a/b/.gitignore': '*\n!*.md\n!.gitignore\n',
  'a/b/x.md': '',
  'a/b/y.js': '',
  'a/b/c/z.md': '',
  'a/top.js': '',
};

/** Every file of the tree, relative to `root`, `/`-separated; .git left out. */
async function allFiles(root: string, dir = root): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await allFiles(root, path)));
    else found.push(relative(root, path));
  }
  return found.sort();
}

async function walked(workdir: string, root: string): Promise<string[]> {
  const guard = await createPathGuard({ workdir });
  const ignore = await loadIgnoreRules(guard.workdir, root);
  const found: string[] = [];
  for await (const entry of walkFiles({ root, guard, ignore, signal: new AbortController().signal })) {
    found.push(relative(workdir, entry.path));
  }
  return found.sort();
}

describe('the walker against git', () => {
  let repo: TempGitRepo;
  // No global excludes file: the walker does not read one either.
  const git = (...args: string[]) => repo.git('-c', 'core.excludesFile=/dev/null', ...args);
  const lines = (text: string) =>
    text
      .split('\0')
      .filter((line) => line !== '')
      .sort();

  beforeAll(async () => {
    repo = await createTempGitRepo({ files, commit: false });
  });
  afterAll(() => repo.remove());

  it('lists exactly the files git lists as untracked and not ignored', async () => {
    const expected = lines(await git('ls-files', '--others', '--exclude-standard', '-z'));
    // A sanity check that the tree exercises negation, nesting and exclusion on git's side too.
    expect(expected).toEqual(expect.arrayContaining(['keep.log', 'sub/a.log', 'sub/deeper/build/k.js']));
    expect(expected).not.toContain('secret/allowed.txt');
    expect(await walked(repo.path, repo.path)).toEqual(expected);
  });

  it('leaves out exactly the files git check-ignore reports', async () => {
    const all = await allFiles(repo.path);
    const ignored = await runCheckIgnore(repo, all);
    const kept = all.filter((file) => !ignored.has(file));
    expect(ignored.size).toBeGreaterThan(20);
    expect(await walked(repo.path, repo.path)).toEqual(kept);
  });

  it('walks a subdirectory with the .gitignore files above it', async () => {
    const expected = lines(await git('ls-files', '--others', '--exclude-standard', '-z', '--', 'sub'));
    expect(await walked(repo.path, join(repo.path, 'sub'))).toEqual(expected);
    const deeper = lines(await git('ls-files', '--others', '--exclude-standard', '-z', '--', 'sub/deeper'));
    expect(await walked(repo.path, join(repo.path, 'sub/deeper'))).toEqual(deeper);
  });

  it('searches a directory named on purpose although it is ignored, with its own rules', async () => {
    expect(await walked(repo.path, join(repo.path, 'build'))).toEqual(['build/out.js']);
    expect(await walked(repo.path, join(repo.path, 'secret'))).toEqual([
      'secret/allowed.txt',
      'secret/other.txt',
    ]);
  });
});

/** The subset of `paths` git check-ignore calls ignored (paths are passed on stdin, NUL-separated). */
async function runCheckIgnore(repo: TempGitRepo, paths: string[]): Promise<Set<string>> {
  const { spawn } = await import('node:child_process');
  const child = spawn('git', ['-c', 'core.excludesFile=/dev/null', 'check-ignore', '--stdin', '-z'], {
    cwd: repo.path,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stdin.end(paths.map((path) => `${path}\0`).join(''));
  await new Promise((resolve) => child.on('close', resolve));
  return new Set(out.split('\0').filter((line) => line !== ''));
}
