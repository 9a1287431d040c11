import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TempDir, TempGitRepo } from '@keel/testkit';
import { createTempDir, createTempGitRepo } from '@keel/testkit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { commitAll, mergeRequestPushOptions, pushBranch } from '../../src/git/index.ts';
import { git, rejection, writeFiles } from './helpers.ts';

let dir: TempDir;
let repo: TempGitRepo;
let bare: string;

beforeEach(async () => {
  dir = await createTempDir();
  repo = await createTempGitRepo({ files: { 'a.txt': 'a\n' } });
  bare = join(dir.path, 'remote.git');
  await git(dir.path, 'init', '-q', '--bare', bare);
  await repo.git('remote', 'add', 'origin', bare);
});

afterEach(async () => {
  await repo.remove();
  await dir.remove();
});

describe('commitAll', () => {
  test('returns null when there is nothing to commit', async () => {
    const head = await repo.git('rev-parse', 'HEAD');
    expect(await commitAll(repo.path, 'nothing')).toBeNull();
    expect(await repo.git('rev-parse', 'HEAD')).toBe(head);
  });

  test('commits every change, untracked files included, with the message verbatim', async () => {
    await writeFiles(repo.path, { 'a.txt': 'changed\n', 'docs/new.md': 'new\n' });
    const message = 'feat: add docs\n\n# Why\nUsers asked.\n';

    const sha = await commitAll(repo.path, message);

    expect(sha).toBe((await repo.git('rev-parse', 'HEAD')).trim());
    expect(await repo.git('log', '-1', '--format=%B')).toBe(`${message}\n`);
    expect(await repo.git('show', '--name-only', '--format=', 'HEAD')).toBe('a.txt\ndocs/new.md\n');
    expect(await repo.git('log', '-1', '--format=%an <%ae>')).toBe('Keel Test <test@keel.invalid>\n');
    expect(await repo.git('status', '--porcelain')).toBe('');
  });

  test('falls back to the Keel identity when git has none configured', async () => {
    await repo.git('config', '--unset', 'user.name');
    await repo.git('config', '--unset', 'user.email');
    await writeFiles(repo.path, { 'b.txt': 'b\n' });
    await commitAll(repo.path, 'anonymous');
    expect(await repo.git('log', '-1', '--format=%an <%ae>|%cn <%ce>')).toBe(
      'Keel Workbench <workbench@keel.local>|Keel Workbench <workbench@keel.local>\n',
    );
  });
});

describe('commitAll with the identity of a source repository', () => {
  test("uses the source's user.name and user.email over the workspace's config", async () => {
    const source = await createTempGitRepo({ files: { 's.txt': 's\n' } });
    try {
      await source.git('config', 'user.name', 'Source Person');
      await source.git('config', 'user.email', 'source@example.invalid');
      await writeFiles(repo.path, { 'b.txt': 'b\n' });
      await commitAll(repo.path, 'from the source', { identityFrom: source.path });
      expect(await repo.git('log', '-1', '--format=%an <%ae>|%cn <%ce>')).toBe(
        'Source Person <source@example.invalid>|Source Person <source@example.invalid>\n',
      );
    } finally {
      await source.remove();
    }
  });

  test('a source that names nobody falls back to the Keel identity, never to the workspace config', async () => {
    const source = await createTempGitRepo({ files: { 's.txt': 's\n' } });
    try {
      await source.git('config', '--unset', 'user.name');
      await source.git('config', '--unset', 'user.email');
      await repo.git('config', 'user.name', 'Model');
      await writeFiles(repo.path, { 'b.txt': 'b\n' });
      await commitAll(repo.path, 'nobody', { identityFrom: source.path });
      expect(await repo.git('log', '-1', '--format=%an <%ae>')).toBe(
        'Keel Workbench <workbench@keel.local>\n',
      );
    } finally {
      await source.remove();
    }
  });
  test('a source that names nobody: the git_identity setting, part by part, before the Keel identity', async () => {
    const source = await createTempGitRepo({ files: { 's.txt': 's\n' } });
    try {
      await source.git('config', '--unset', 'user.name');
      await source.git('config', 'user.email', 'source@example.invalid');
      await writeFiles(repo.path, { 'b.txt': 'b\n' });
      await commitAll(repo.path, 'set', {
        identityFrom: source.path,
        identity: { name: 'Set Person', email: 'set@example.invalid' },
      });
      // The source's email still wins; its missing name comes from the setting.
      expect(await repo.git('log', '-1', '--format=%an <%ae>|%cn <%ce>')).toBe(
        'Set Person <source@example.invalid>|Set Person <source@example.invalid>\n',
      );
    } finally {
      await source.remove();
    }
  });
});

describe('pushBranch', () => {
  test('lands the commits on the branch of the remote and sets the upstream', async () => {
    await repo.git('switch', '-q', '-c', 'keel/task-1');
    await writeFiles(repo.path, { 'b.txt': 'b\n' });
    const sha = await commitAll(repo.path, 'task work');

    await pushBranch(repo.path, { branch: 'keel/task-1' });

    expect((await git(bare, 'rev-parse', 'refs/heads/keel/task-1')).trim()).toBe(sha);
    expect((await repo.git('rev-parse', '--abbrev-ref', 'keel/task-1@{upstream}')).trim()).toBe(
      'origin/keel/task-1',
    );
  });

  test("delivers GitLab's merge-request push options to the remote and reports its MR link", async () => {
    await git(bare, 'config', 'receive.advertisePushOptions', 'true');
    const recorded = join(dir.path, 'push-options.txt');
    const hook = join(bare, 'hooks', 'pre-receive');
    await writeFile(
      hook,
      [
        '#!/bin/sh',
        `out='${recorded}'`,
        'echo "count=$GIT_PUSH_OPTION_COUNT" > "$out"',
        'i=0',
        'n="$GIT_PUSH_OPTION_COUNT"',
        '[ -n "$n" ] || n=0',
        'while [ "$i" -lt "$n" ]; do',
        '  eval "printf \'%s\\n\' \\"\\$GIT_PUSH_OPTION_$i\\"" >> "$out"',
        '  i=$((i + 1))',
        'done',
        'echo "View merge request for keel/task-2:" >&2',
        'echo "  https://gitlab.example.com/g/r/-/merge_requests/7" >&2',
        '',
      ].join('\n'),
    );
    await chmod(hook, 0o755);
    await repo.git('switch', '-q', '-c', 'keel/task-2');
    const options = mergeRequestPushOptions({
      target: 'main',
      title: 'Add login\npage',
      description: 'Line one\nLine two\r\n\r\nLine four',
    });

    const result = await pushBranch(repo.path, { branch: 'keel/task-2', pushOptions: options });

    expect(await readFile(recorded, 'utf8')).toBe(
      [
        'count=4',
        'merge_request.create',
        'merge_request.target=main',
        'merge_request.title=Add login page',
        'merge_request.description=Line one Line two Line four',
        '',
      ].join('\n'),
    );
    expect(result.mergeRequestUrl).toBe('https://gitlab.example.com/g/r/-/merge_requests/7');
    expect(result.remoteMessages).toContain('View merge request for keel/task-2:');
  });

  test('a remote that cannot take the push is PUSH_FAILED (502) with git stderr, without credentials', async () => {
    await repo.git('remote', 'set-url', 'origin', 'https://user:s3cret-token@127.0.0.1:9/nowhere.git');
    const error = await rejection(pushBranch(repo.path, { branch: 'main' }));
    expect(error).toMatchObject({ code: 'PUSH_FAILED', status: 502 });
    expect(error.message).toContain('pushing main to origin failed');
    expect(String(error.details?.stderr)).toMatch(/\S/);
    expect(JSON.stringify(error)).not.toContain('s3cret-token');
    expect(error.message).not.toContain('s3cret-token');
  });

  test("a remote that refuses the push is PUSH_FAILED with the remote's reason in details.stderr", async () => {
    const hook = join(bare, 'hooks', 'pre-receive');
    await writeFile(hook, '#!/bin/sh\necho "policy: protected repository" >&2\nexit 1\n');
    await chmod(hook, 0o755);
    const error = await rejection(pushBranch(repo.path, { branch: 'main' }));
    expect(error).toMatchObject({ code: 'PUSH_FAILED', status: 502 });
    expect(error.message).toMatch(/^pushing main to origin failed: error: failed to push some refs/);
    expect(error.details?.stderr).toContain('remote: policy: protected repository');
    expect(error.details?.stderr).toContain('pre-receive hook declined');
  });

  test('a missing branch is the caller’s mistake (422)', async () => {
    const error = await rejection(pushBranch(repo.path, { branch: 'nope' }));
    expect(error).toMatchObject({ code: 'REPOSITORY_UNUSABLE', status: 422 });
  });
});

describe('mergeRequestPushOptions', () => {
  test('omits an empty description and never lets a newline through', () => {
    expect(mergeRequestPushOptions({ target: 'main', title: 'T' })).toEqual([
      'merge_request.create',
      'merge_request.target=main',
      'merge_request.title=T',
    ]);
    const options = mergeRequestPushOptions({
      target: 'dev',
      title: ' a\n\nb ',
      description: `${'x'.repeat(20_000)}\n`,
    });
    expect(options.every((option) => !/[\r\n]/.test(option))).toBe(true);
    expect(options[2]).toBe('merge_request.title=a b');
    expect(options[3]?.length).toBeLessThan(16_100);
    expect(options[3]?.endsWith('…')).toBe(true);
  });
});
