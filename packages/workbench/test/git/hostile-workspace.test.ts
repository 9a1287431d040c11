// A task workspace is written by the model: everything in its `.git` may be planted. The workbench's own git
// (diff, snapshots, restore, commit, push) must run no program the repository names, touch no folder
// outside the workspace and push only where the user's repository says.
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TempDir } from '@keel/testkit';
import { createTempDir } from '@keel/testkit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { WorkspaceInfo } from '../../src/git/index.ts';
import {
  commitAll,
  createWorkspace,
  diff,
  pushBranch,
  restoreSnapshot,
  snapshot,
  sourcePushUrl,
} from '../../src/git/index.ts';
import { git, rejection, writeFiles } from './helpers.ts';

let dir: TempDir;
let source: string;
let bare: string;
let evil: string;
let markers: string;
let ws: WorkspaceInfo;

beforeEach(async () => {
  dir = await createTempDir();
  source = join(dir.path, 'source');
  bare = join(dir.path, 'remote.git');
  evil = join(dir.path, 'evil.git');
  markers = join(dir.path, 'markers');
  await mkdir(markers);
  await git(dir.path, 'init', '-q', '--bare', '-b', 'main', bare);
  await git(dir.path, 'init', '-q', '--bare', '-b', 'main', evil);
  await git(dir.path, 'init', '-q', '-b', 'main', source);
  await git(source, 'config', 'user.name', 'Keel Test');
  await git(source, 'config', 'user.email', 'test@keel.invalid');
  await writeFiles(source, { 'a.txt': 'a\n' });
  await git(source, 'add', '-A');
  await git(source, 'commit', '-q', '-m', 'initial');
  await git(source, 'remote', 'add', 'origin', bare);
  await git(source, 'push', '-q', 'origin', 'main');
  ws = await createWorkspace({ source, dest: join(dir.path, 'tasks', 't1', 'app'), branch: 'keel/t1' });
});

afterEach(async () => {
  await dir.remove();
});

/** A program that leaves `markers/<name>` behind when anything runs it (and passes stdin through). */
async function trap(name: string): Promise<string> {
  const path = join(dir.path, `trap-${name}.sh`);
  await writeFile(path, `#!/bin/sh\ntouch '${join(markers, name)}'\ncat\n`);
  await chmod(path, 0o755);
  return path;
}

/** Sets `key` in the workspace's own `.git/config`, as a model with a shell would. */
async function plant(key: string, value: string, add = false): Promise<void> {
  await git(ws.dir, 'config', '--local', ...(add ? ['--add'] : []), key, value);
}

async function plantHooks(names: string[]): Promise<void> {
  for (const name of names) {
    const hook = join(ws.dir, '.git', 'hooks', name);
    await writeFile(hook, `#!/bin/sh\ntouch '${join(markers, `hook-${name}`)}'\n`);
    await chmod(hook, 0o755);
  }
}

describe('the workbench git in a hostile workspace', () => {
  test('diff, snapshot, restore and commit run none of the programs the repository config names', async () => {
    await plant('core.fsmonitor', await trap('fsmonitor'));
    await plant('core.pager', await trap('pager'));
    await plant('core.editor', await trap('editor'));
    await plant('diff.external', await trap('diff-external'));
    await plant('diff.evil.textconv', await trap('textconv'));
    await plant('diff.evil.command', await trap('diff-command'));
    await plant('filter.evil.clean', await trap('filter-clean'));
    await plant('filter.evil.smudge', await trap('filter-smudge'));
    await plant('filter.evil.required', 'true');
    await plant('gpg.program', await trap('gpg'));
    await plant('commit.gpgSign', 'true');
    await plant('core.askPass', await trap('askpass'));
    await plant('credential.helper', `!${await trap('credential')}`);
    await plant('submodule.recurse', 'true');
    await plantHooks([
      'pre-commit',
      'prepare-commit-msg',
      'commit-msg',
      'post-commit',
      'post-checkout',
      'post-index-change',
      'reference-transaction',
    ]);
    await writeFiles(ws.dir, {
      '.gitattributes': '* filter=evil diff=evil\n',
      'b.txt': 'b\n',
      'a.txt': 'changed\n',
    });

    const changes = await diff(ws.dir, ws.baseCommit);
    expect(changes.files.map((file) => file.path).sort()).toEqual(['.gitattributes', 'a.txt', 'b.txt']);
    expect(changes.patch).toContain('+changed');
    const before = await snapshot(ws.dir, 'before');
    await writeFiles(ws.dir, { 'c.txt': 'c\n' });
    await restoreSnapshot(ws.dir, before);
    expect(existsSync(join(ws.dir, 'c.txt'))).toBe(false);
    const sha = await commitAll(ws.dir, 'task work');

    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await git(ws.dir, 'show', '--format=', '--name-only', 'HEAD')).toBe(
      '.gitattributes\na.txt\nb.txt\n',
    );
    expect(await readdir(markers)).toEqual([]);
  });

  test('a planted core.worktree does not move the snapshot and restore out of the workspace', async () => {
    const victim = join(dir.path, 'victim');
    await writeFiles(victim, { 'precious.txt': 'keep me\n' });
    const before = await snapshot(ws.dir, 'before');
    await plant('core.worktree', victim);
    await writeFiles(ws.dir, { 'new.txt': 'new\n' });

    await restoreSnapshot(ws.dir, before);

    expect(await readFile(join(victim, 'precious.txt'), 'utf8')).toBe('keep me\n');
    expect(existsSync(join(ws.dir, 'new.txt'))).toBe(false);
    expect(await readFile(join(ws.dir, 'a.txt'), 'utf8')).toBe('a\n');
  });

  test('the push goes where the source repository says, with no hook, helper or program of the workspace', async () => {
    await plant('remote.origin.url', evil);
    await plant('remote.origin.pushurl', evil);
    await plant('remote.origin.receivepack', await trap('receivepack'));
    await plant(`url.${evil}.insteadOf`, bare);
    await plant(`url.${evil}.pushInsteadOf`, bare);
    await plant('core.sshCommand', await trap('ssh'));
    await plant('credential.helper', `!${await trap('credential')}`);
    await plantHooks(['pre-push', 'reference-transaction', 'post-update']);
    await writeFiles(ws.dir, { 'b.txt': 'b\n' });
    const sha = await commitAll(ws.dir, 'task work');

    await pushBranch(ws.dir, { branch: 'keel/t1', url: await sourcePushUrl(source) });

    expect((await git(bare, 'rev-parse', 'refs/heads/keel/t1')).trim()).toBe(sha);
    expect(await git(evil, 'for-each-ref')).toBe('');
    expect(await readdir(markers)).toEqual([]);
    expect((await git(ws.dir, 'rev-parse', '--abbrev-ref', 'keel/t1@{upstream}')).trim()).toBe(
      'origin/keel/t1',
    );
  });

  test('a .git replaced by a link to another repository is refused', async () => {
    await rename(join(ws.dir, '.git'), join(dir.path, 'moved-git'));
    await symlink(join(source, '.git'), join(ws.dir, '.git'));
    const sourceHead = await git(source, 'rev-parse', 'HEAD');
    await writeFiles(ws.dir, { 'b.txt': 'b\n' });

    for (const operation of [
      () => snapshot(ws.dir),
      () => commitAll(ws.dir, 'into the source'),
      () => diff(ws.dir, ws.baseCommit),
    ]) {
      expect(await rejection(operation())).toMatchObject({ code: 'REPOSITORY_UNUSABLE', status: 422 });
    }
    expect(await git(source, 'rev-parse', 'HEAD')).toBe(sourceHead);
    expect(await git(source, 'for-each-ref', 'refs/workbench/')).toBe('');
  });

  test('git files inside .git replaced by links are refused, never written through', async () => {
    // The link points at a valid index outside the workspace: git would happily rewrite it through the link.
    const before = await snapshot(ws.dir, 'before');
    await writeFiles(ws.dir, { 'b.txt': 'b\n' });
    const outside = join(dir.path, 'outside-index');
    const index = join(ws.dir, '.git', 'index');
    await rename(index, outside);
    await symlink(outside, index);
    const original = await readFile(outside);

    for (const operation of [() => restoreSnapshot(ws.dir, before), () => commitAll(ws.dir, 'work')]) {
      expect(await rejection(operation())).toMatchObject({ code: 'REPOSITORY_UNUSABLE', status: 422 });
      expect((await readFile(outside)).equals(original)).toBe(true);
    }
  });
});
