import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeelError } from '../../src/errors/index.ts';
import { createPathGuard } from '../../src/tools/index.ts';
import { tempDir, writeFiles } from './helpers.ts';

async function denied(promise: Promise<unknown>): Promise<KeelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!KeelError.is(error)) throw new Error(`expected a KeelError, got ${String(error)}`);
  return error;
}

const guard = (workdir: string) => createPathGuard({ workdir });

describe('PathGuard', () => {
  it('resolves relative paths against the workdir, including files that do not exist yet', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'src/a.ts': 'x' });
    const guard = await createPathGuard({ workdir: work.path });
    expect(await guard.resolve('src/a.ts', 'read')).toBe(join(work.path, 'src/a.ts'));
    expect(await guard.resolve('./src/../src/a.ts', 'read')).toBe(join(work.path, 'src/a.ts'));
    expect(await guard.resolve('new/deep/file.ts', 'write')).toBe(join(work.path, 'new/deep/file.ts'));
    expect(await guard.resolve('.', 'read')).toBe(work.path);
    expect(guard.roots).toEqual([work.path]);
  });

  it('refuses .. escapes with PERMISSION_DENIED naming the path and the workdir', async () => {
    await using work = await tempDir();
    const guard = await createPathGuard({ workdir: work.path });
    const error = await denied(guard.resolve('../outside.txt', 'read'));
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.message).toContain("'../outside.txt' is outside the working directory");
    expect(error.details).toEqual({ path: '../outside.txt', workdir: work.path });
    expect((await denied(guard.resolve('src/../../x', 'write'))).code).toBe('PERMISSION_DENIED');
  });

  it('refuses absolute paths outside the workdir', async () => {
    await using work = await tempDir();
    const guard = await createPathGuard({ workdir: work.path });
    expect((await denied(guard.resolve('/etc/passwd', 'read'))).code).toBe('PERMISSION_DENIED');
    expect((await denied(guard.resolve('/', 'read'))).code).toBe('PERMISSION_DENIED');
  });

  it('accepts absolute paths inside the workdir', async () => {
    await using work = await tempDir();
    const guard = await createPathGuard({ workdir: work.path });
    expect(await guard.resolve(join(work.path, 'a.txt'), 'write')).toBe(join(work.path, 'a.txt'));
  });

  it('refuses a symlinked file that points outside', async () => {
    await using work = await tempDir();
    await using outside = await tempDir();
    await writeFiles(outside.path, { 'secret.txt': 'secret' });
    await symlink(join(outside.path, 'secret.txt'), join(work.path, 'link.txt'));
    const guard = await createPathGuard({ workdir: work.path });
    expect((await denied(guard.resolve('link.txt', 'read'))).code).toBe('PERMISSION_DENIED');
    expect((await denied(guard.resolve('link.txt', 'write'))).code).toBe('PERMISSION_DENIED');
  });

  it('refuses paths through a symlinked directory that points outside, for reading and writing', async () => {
    await using work = await tempDir();
    await using outside = await tempDir();
    await writeFiles(outside.path, { 'secret.txt': 'secret' });
    await symlink(outside.path, join(work.path, 'linked'));
    const guard = await createPathGuard({ workdir: work.path });
    expect((await denied(guard.resolve('linked/secret.txt', 'read'))).code).toBe('PERMISSION_DENIED');
    expect((await denied(guard.resolve('linked/new/file.txt', 'write'))).code).toBe('PERMISSION_DENIED');
  });

  it('refuses writing through a dangling symlink whose target is outside', async () => {
    await using work = await tempDir();
    await using outside = await tempDir();
    await symlink(join(outside.path, 'not-yet.txt'), join(work.path, 'dangling.txt'));
    const guard = await createPathGuard({ workdir: work.path });
    expect((await denied(guard.resolve('dangling.txt', 'write'))).code).toBe('PERMISSION_DENIED');
  });

  it('refuses a symlink loop instead of hanging', async () => {
    await using work = await tempDir();
    await symlink(join(work.path, 'b'), join(work.path, 'a'));
    await symlink(join(work.path, 'a'), join(work.path, 'b'));
    const error = await denied(guard(work.path).then((g) => g.resolve('a/file.txt', 'write')));
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.message).toContain("cannot resolve 'a/file.txt'");
  });

  it('follows symlinks that stay inside and returns the real path', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'real/a.txt': 'a' });
    await symlink(join(work.path, 'real'), join(work.path, 'alias'));
    const guard = await createPathGuard({ workdir: work.path });
    expect(await guard.resolve('alias/a.txt', 'read')).toBe(join(work.path, 'real/a.txt'));
  });

  it('treats ~ literally rather than as the home directory', async () => {
    await using work = await tempDir();
    const guard = await createPathGuard({ workdir: work.path });
    expect(await guard.resolve('~/notes.txt', 'write')).toBe(join(work.path, '~/notes.txt'));
  });

  it('grants access to allowed roots and says so when refusing', async () => {
    await using work = await tempDir();
    await using extra = await tempDir();
    await using other = await tempDir();
    const guard = await createPathGuard({ workdir: work.path, allowedRoots: [extra.path] });
    expect(guard.roots).toEqual([work.path, extra.path]);
    expect(await guard.resolve(join(extra.path, 'x.txt'), 'write')).toBe(join(extra.path, 'x.txt'));
    const error = await denied(guard.resolve(join(other.path, 'x.txt'), 'read'));
    expect(error.message).toContain('outside the working directory and the allowed roots');
  });

  it('with strictReadBoundary false allows reads outside but still confines writes', async () => {
    await using work = await tempDir();
    await using outside = await tempDir();
    await writeFiles(outside.path, { 'doc.txt': 'hello' });
    const guard = await createPathGuard({ workdir: work.path, strictReadBoundary: false });
    expect(await guard.resolve(join(outside.path, 'doc.txt'), 'read')).toBe(join(outside.path, 'doc.txt'));
    expect((await denied(guard.resolve(join(outside.path, 'doc.txt'), 'write'))).code).toBe(
      'PERMISSION_DENIED',
    );
  });

  it('isInside compares whole path segments, not string prefixes', async () => {
    await using work = await tempDir();
    const guard = await createPathGuard({ workdir: work.path });
    expect(guard.isInside(work.path)).toBe(true);
    expect(guard.isInside(join(work.path, 'a/b'))).toBe(true);
    expect(guard.isInside(`${work.path}-sibling/a`)).toBe(false);
  });

  it('rejects an empty path as invalid params', async () => {
    await using work = await tempDir();
    const guard = await createPathGuard({ workdir: work.path });
    expect((await denied(guard.resolve('', 'read'))).code).toBe('INVALID_PARAMS');
  });
});
