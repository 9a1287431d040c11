import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions
type Body = any;

/**
 * Runs `work` without root's power to read anything: the effective user becomes `nobody` for its length
 * (this test file has its own process), so a directory with mode 000 really is unreadable.
 */
async function unprivileged<T>(work: () => Promise<T>): Promise<T> {
  if (process.geteuid?.() !== 0) return work();
  process.seteuid?.(65534);
  try {
    return await work();
  } finally {
    process.seteuid?.(0);
  }
}

describe('GET /api/directories', () => {
  test('lists path and entries (name, is_dir): directories first, dot entries only when asked', async () => {
    await using home = await createTempDir();
    await using s = await startServer([], { env: { HOME: home.path } });
    await using root = await createTempDir();
    await mkdir(join(root.path, 'zeta'));
    await mkdir(join(root.path, 'alpha'));
    await mkdir(join(root.path, '.hidden'));
    await writeFile(join(root.path, 'notes.txt'), 'x');
    await symlink(join(root.path, 'zeta'), join(root.path, 'linked'));
    await symlink(join(root.path, 'gone'), join(root.path, 'broken'));

    const listing = await s.api('GET', `/api/directories?path=${encodeURIComponent(root.path)}`);
    expect(listing).toEqual({
      status: 200,
      body: {
        path: root.path,
        parent: join(root.path, '..'),
        entries: [
          { name: 'alpha', is_dir: true },
          { name: 'linked', is_dir: true },
          { name: 'zeta', is_dir: true },
          { name: 'broken', is_dir: false },
          { name: 'notes.txt', is_dir: false },
        ],
      },
    });
    const hidden = await s.api('GET', `/api/directories?path=${encodeURIComponent(root.path)}&hidden=true`);
    expect(hidden.body.entries.map((entry: Body) => entry.name)).toContain('.hidden');
    expect((await s.api('GET', '/api/directories?path=/')).body.parent).toBeNull();
  });

  test("the default is the user's home; `~/…` and relative paths start there", async () => {
    await using home = await createTempDir();
    await mkdir(join(home.path, 'code'));
    await using s = await startServer([], { env: { HOME: home.path } });
    expect((await s.api('GET', '/api/directories')).body).toEqual({
      path: home.path,
      parent: join(home.path, '..'),
      entries: [{ name: 'code', is_dir: true }],
    });
    expect((await s.api('GET', '/api/directories?path=~/code')).body.path).toBe(join(home.path, 'code'));
    expect((await s.api('GET', '/api/directories?path=code')).body.path).toBe(join(home.path, 'code'));
  });

  test('a missing directory is 404 INVALID_PARAMS, a file too; an unreadable one 403 PERMISSION_DENIED', async () => {
    await using s = await startServer([]);
    await using root = await createTempDir();
    await writeFile(join(root.path, 'file.txt'), 'x');
    for (const path of [
      join(root.path, 'nope'),
      join(root.path, 'file.txt'),
      join(root.path, 'file.txt', 'below'),
    ]) {
      const answer = await s.api('GET', `/api/directories?path=${encodeURIComponent(path)}`);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error, path).toMatchObject({ code: 'INVALID_PARAMS', details: { path } });
    }
    const locked = join(root.path, 'locked');
    await mkdir(locked);
    await chmod(locked, 0o000);
    // The containing temp directory is root's own (0700): as `nobody`, even reaching it is refused.
    await chmod(root.path, 0o755);
    const denied = await unprivileged(() =>
      s.api('GET', `/api/directories?path=${encodeURIComponent(locked)}`),
    );
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'PERMISSION_DENIED', details: { path: locked } });
    await chmod(locked, 0o755);

    const bad = await s.api('GET', '/api/directories?hidden=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PARAMS');
    const long = await s.api('GET', `/api/directories?path=/${'a'.repeat(5000)}`);
    expect(long.status).toBe(400);
    const nul = await s.api('GET', '/api/directories?path=%00');
    expect(nul.status).toBe(400);
    expect(nul.body.error.code).toBe('INVALID_PARAMS');
  });

  test('with an API key it needs the key, as every endpoint but /health does', async () => {
    await using s = await startServer([], { apiKey: 'sekret' });
    expect((await s.api('GET', '/api/directories')).status).toBe(401);
    expect((await s.api('GET', '/api/projects')).status).toBe(401);
    const allowed = await s.api('GET', '/api/directories?path=/', undefined, {
      authorization: 'Bearer sekret',
    });
    expect(allowed.status).toBe(200);
  });
});
