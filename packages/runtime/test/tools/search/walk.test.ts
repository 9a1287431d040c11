import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPathGuard, IgnoreRules, loadIgnoreRules, walkFiles } from '../../../src/tools/index.ts';
import { tempDir, writeFiles } from '../helpers.ts';

async function collect(root: string, workdir: string, maxDepth?: number): Promise<string[]> {
  const guard = await createPathGuard({ workdir });
  const ignore = await loadIgnoreRules(workdir);
  const signal = new AbortController().signal;
  const found: string[] = [];
  for await (const entry of walkFiles({ root, guard, ignore, signal, ...(maxDepth ? { maxDepth } : {}) })) {
    found.push(entry.rel);
  }
  return found;
}

describe('walkFiles', () => {
  it('yields files depth first in name order, relative to the root', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'b.txt': '', 'a/z.txt': '', 'a/b/c.txt': '', '.env.example': '' });
    expect(await collect(work.path, work.path)).toEqual(['.env.example', 'a/b/c.txt', 'a/z.txt', 'b.txt']);
    expect(await collect(join(work.path, 'a'), work.path)).toEqual(['b/c.txt', 'z.txt']);
    expect(await collect(work.path, work.path, 2)).toEqual(['.env.example', 'a/z.txt', 'b.txt']);
  });

  it('follows file links inside the roots only and never enters linked directories', async () => {
    await using work = await tempDir();
    await using outside = await tempDir();
    await writeFiles(outside.path, { 'o.txt': '' });
    await writeFiles(work.path, { 'real/r.txt': '' });
    await symlink(join(outside.path, 'o.txt'), join(work.path, 'out-link.txt'));
    await symlink(join(work.path, 'real/r.txt'), join(work.path, 'in-link.txt'));
    await symlink(join(work.path, 'real'), join(work.path, 'loop'));
    await symlink(join(work.path, 'missing'), join(work.path, 'broken.txt'));
    expect(await collect(work.path, work.path)).toEqual(['in-link.txt', 'real/r.txt']);
  });
});

describe('IgnoreRules', () => {
  const base = '/repo';
  const rules = new IgnoreRules(
    base,
    '# comment\n\n*.log\nbuild/\n/root-only.txt\ndocs/*.tmp\n!important.log\n',
  );
  const ignored = (rel: string, dir = false) => rules.isIgnored(join(base, rel), dir);

  it('matches plain names and globs at any depth', () => {
    expect(ignored('a.log')).toBe(true);
    expect(ignored('deep/x/a.log')).toBe(true);
    expect(ignored('important.log')).toBe(false); // re-included by !important.log
    expect(ignored('a.ts')).toBe(false);
  });

  it('matches dir/ entries only for directories', () => {
    expect(ignored('build', true)).toBe(true);
    expect(ignored('pkg/build', true)).toBe(true);
    expect(ignored('build')).toBe(false);
  });

  it('anchors entries with a slash to the workdir', () => {
    expect(ignored('root-only.txt')).toBe(true);
    expect(ignored('sub/root-only.txt')).toBe(false);
    expect(ignored('docs/a.tmp')).toBe(true);
    expect(ignored('other/docs/a.tmp')).toBe(false);
  });

  it('reads a nested .gitignore relative to its own directory, the deeper file winning', () => {
    const nested = rules.within(join(base, 'pkg'), '!*.log\n/local.txt\ncache/\n');
    const inPkg = (rel: string, dir = false) => nested.isIgnored(join(base, rel), dir);
    expect(inPkg('pkg/a.log')).toBe(false);
    expect(inPkg('pkg/deep/a.log')).toBe(false);
    expect(inPkg('a.log')).toBe(true);
    expect(inPkg('pkg/local.txt')).toBe(true);
    expect(inPkg('pkg/sub/local.txt')).toBe(false);
    expect(inPkg('pkg/x/cache', true)).toBe(true);
    expect(inPkg('pkg/build', true)).toBe(true); // the root's rules still apply below pkg
    expect(rules.within(join(base, 'other'), '# only a comment\n')).toBe(rules);
  });

  it('always skips .git and node_modules directories, and applies nothing outside the workdir', () => {
    expect(ignored('.git', true)).toBe(true);
    expect(ignored('a/node_modules', true)).toBe(true);
    expect(rules.isIgnored('/elsewhere/a.log', false)).toBe(false);
  });
});
