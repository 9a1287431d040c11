// Issue #37 item 3, through real tasks: when the source repository has its dependencies installed (a real
// `npm ci`) and the lockfile is unchanged, the init step `setup:app` copies its node_modules into the
// workspace instead of running `npm ci`: a copy (other inodes, a write in the workspace leaves the source
// as it was), its relative links kept, nothing of it in the task's change; a monorepo's packages' too. A
// lockfile that differs, or a link in the source's node_modules into the user's tree, makes the step run
// `npm ci` instead, and says why.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { knowledgeScript, startWorkbench, tempDir } from '../harness.ts';
import { initializedTask, stepOf } from './init-task.ts';
import { npmMonorepo, npmRepository } from './npm-fixture.ts';

const hasBwrap = existsSync('/usr/bin/bwrap');

function gitStatus(dir: string): string {
  return execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
    cwd: dir,
    encoding: 'utf8',
  });
}

/** Every link under `dir` whose target lies outside `boundary`, as `link -> target`. */
function linksLeaving(dir: string, boundary: string): string[] {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isSymbolicLink())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((link) => relative(boundary, resolve(dirname(link), readlinkSync(link))).startsWith('..'))
    .map((link) => `${link} -> ${readlinkSync(link)}`);
}

describe("a workspace reuses the source repository's installed node_modules", () => {
  test('lockfile unchanged: node_modules copied, npm ci not run; a copy, not links; git status clean', {
    timeout: 90_000,
  }, async () => {
    const repo = npmRepository(tempDir('reuse'), { installed: true });
    // What `npm ci` would not make: it is in the workspace only if node_modules was copied.
    writeFileSync(join(repo.dir, 'node_modules', 'tiny', 'from-source.txt'), 'copied\n');
    await using wb = await startWorkbench(knowledgeScript(1));
    const { task } = await initializedTask(wb.api, repo.dir, true);
    expect(task.init.status, JSON.stringify(task.init)).toBe('done');
    const step = stepOf(task, 'setup:app');
    expect(step.detail).toMatch(
      /^reused node_modules from the source repository \(lockfile unchanged\), \d+\.\d s; `npm ci` did not run$/,
    );
    expect(step.output).toContain(`copied from ${repo.dir}`);

    const workspace = task.workspaces[0].dir;
    const ours = (path: string) => join(workspace, 'node_modules', path);
    const theirs = (path: string) => join(repo.dir, 'node_modules', path);
    expect(readFileSync(ours('tiny/from-source.txt'), 'utf8')).toBe('copied\n');
    // npm's relative link stays a relative link, inside the copy, and works.
    expect(readlinkSync(ours('.bin/tiny-test'))).toBe('../tiny/bin.js');
    expect(execFileSync(ours('.bin/tiny-test'), { encoding: 'utf8' })).toBe('tiny ok\n');
    expect(linksLeaving(join(workspace, 'node_modules'), workspace)).toEqual([]);
    // A copy: its own inodes, and writing in it leaves the source's files as they were.
    for (const path of ['tiny/bin.js', 'tiny/package.json', '.package-lock.json']) {
      expect(statSync(ours(path)).ino).not.toBe(statSync(theirs(path)).ino);
    }
    const original = readFileSync(theirs('tiny/bin.js'), 'utf8');
    writeFileSync(ours('tiny/bin.js'), 'console.log("changed in the workspace");\n');
    writeFileSync(ours('tiny/new-file.js'), 'new\n');
    expect(readFileSync(theirs('tiny/bin.js'), 'utf8')).toBe(original);
    expect(existsSync(theirs('tiny/new-file.js'))).toBe(false);

    // No part of the task's change, though the repository has no .gitignore (and was written to since).
    expect(gitStatus(workspace)).toBe('');
    expect(readFileSync(join(workspace, '.git', 'info', 'exclude'), 'utf8')).toContain('/node_modules/');
    const diff = (await wb.api('GET', `/api/tasks/${task.id}/diff`)).body;
    expect(diff.repositories[0].files).toEqual([]);
  });

  test('a monorepo: the root and packages/a node_modules are copied, the link to ../packages/a kept', {
    timeout: 90_000,
  }, async () => {
    const repo = npmMonorepo(tempDir('reuse-mono'));
    await using wb = await startWorkbench(knowledgeScript(1));
    const { task } = await initializedTask(wb.api, repo.dir, true);
    expect(task.init.status, JSON.stringify(task.init)).toBe('done');
    expect(stepOf(task, 'setup:mono').detail).toMatch(
      /^reused node_modules, packages\/a\/node_modules from the source repository \(lockfile unchanged\), \d+\.\d s; `npm ci` did not run$/,
    );
    const workspace = task.workspaces[0].dir;
    // npm's link to the workspace package points at the workspace's own copy of it, not the user's.
    expect(readlinkSync(join(workspace, 'node_modules', 'a'))).toBe('../packages/a');
    expect(linksLeaving(workspace, workspace)).toEqual([]);
    const nested = join(workspace, 'packages', 'a', 'node_modules', 'tiny', 'package.json');
    expect(JSON.parse(readFileSync(nested, 'utf8')).version).toBe('2.0.0');
    const tree = execFileSync('npm', ['ls', '--all', '--offline'], { cwd: workspace, encoding: 'utf8' });
    expect(tree).toContain('tiny@2.0.0');
    expect(tree).toContain('tiny@1.0.0');
    expect(gitStatus(workspace)).toBe('');
  });

  test.skipIf(!hasBwrap)(
    "lockfile differs from the source's: npm ci runs, and the step says why",
    {
      timeout: 90_000,
    },
    async () => {
      const repo = npmRepository(tempDir('reuse-differs'), { installed: true });
      writeFileSync(join(repo.dir, 'node_modules', 'tiny', 'from-source.txt'), 'copied\n');
      // The user's working tree has a lockfile of its own (not committed): its node_modules is of that one.
      const lockfile = join(repo.dir, 'package-lock.json');
      writeFileSync(lockfile, `${readFileSync(lockfile, 'utf8')}\n`);
      await using wb = await startWorkbench(knowledgeScript(1));
      const { task } = await initializedTask(wb.api, repo.dir, true);
      expect(task.init.status, JSON.stringify(task.init)).toBe('done');
      const step = stepOf(task, 'setup:app');
      expect(step.detail).toMatch(
        /^`npm ci` succeeded in \d+\.\d s \(the source's node_modules was not reused: package-lock\.json differs from the source's\)$/,
      );
      expect(step.output).toContain('added 1 package');
      const workspace = task.workspaces[0].dir;
      expect(existsSync(join(workspace, 'node_modules', 'tiny', 'bin.js'))).toBe(true);
      expect(existsSync(join(workspace, 'node_modules', 'tiny', 'from-source.txt'))).toBe(false);
      expect(gitStatus(workspace)).toBe('');
    },
  );

  test.skipIf(!hasBwrap)(
    "a link in the source's node_modules into the user's tree: not copied, npm ci runs",
    {
      timeout: 90_000,
    },
    async () => {
      const root = tempDir('reuse-link');
      const repo = npmRepository(root, { installed: true });
      // As `npm link` leaves it: node_modules/linked is the user's own package, elsewhere on their disk.
      const userPackage = join(root, 'user-package');
      mkdirSync(userPackage);
      writeFileSync(join(userPackage, 'index.js'), 'module.exports = "the user\'s";\n');
      symlinkSync(userPackage, join(repo.dir, 'node_modules', 'linked'));
      await using wb = await startWorkbench(knowledgeScript(1));
      const { task } = await initializedTask(wb.api, repo.dir, true);
      expect(task.init.status, JSON.stringify(task.init)).toBe('done');
      const step = stepOf(task, 'setup:app');
      expect(step.detail).toMatch(
        /^`npm ci` succeeded in \d+\.\d s \(the source's node_modules was not reused: /,
      );
      expect(step.detail).toContain(`node_modules/linked links outside the workspace (to ${userPackage})`);
      const workspace = task.workspaces[0].dir;
      // Nothing in the workspace leads into the user's tree: the link is not there, no other link leaves.
      expect(lstatSync(join(workspace, 'node_modules', 'linked'), { throwIfNoEntry: false })).toBeUndefined();
      expect(linksLeaving(workspace, workspace)).toEqual([]);
      // The refused copy is gone: only what npm ci made (and git's own files) is in the workspace.
      expect(readdirSync(workspace).filter((name) => name.startsWith('.node_modules'))).toEqual([]);
      expect(readFileSync(join(userPackage, 'index.js'), 'utf8')).toBe('module.exports = "the user\'s";\n');
      expect(gitStatus(workspace)).toBe('');
    },
  );
});
