import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { mountSmallDisk, smallDiskUnavailable } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { integrityOf } from '../../../runtime/test/store/faults/fault-checks.ts';
import { createWorkbench } from '../../src/index.ts';
import { apiAt, repoWithRemote, tempDir } from '../harness.ts';

const cannotMount = smallDiskUnavailable();
const nobody = 65534;
// Root may write a file whatever its mode, so the read-only file is opened by an unprivileged user.
const cannotDropRoot =
  process.getuid?.() !== 0
    ? 'dropping to an unprivileged user needs root'
    : existsSync('/usr/bin/setpriv')
      ? undefined
      : 'setpriv (util-linux) is not installed';

/** A workbench home with settings and one project, made by this process and closed again. */
async function homeWithData(home: string, repoDir: string): Promise<void> {
  const workbench = await createWorkbench({ home, env: {} });
  try {
    const api = apiAt(await workbench.listen(0));
    expect((await api('PUT', '/api/settings', { model: 'm', api_key: 'sk-test' })).status).toBe(200);
    expect(
      (await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repoDir, type: 'custom' }] }))
        .status,
    ).toBe(201);
  } finally {
    await workbench.close();
  }
}

describe.skipIf(cannotDropRoot)(
  `the workbench on a read-only database file${cannotDropRoot ? ` (skipped: ${cannotDropRoot})` : ''}`,
  () => {
    test('reads answer; writes answer 500 STORE_ERROR (read_only, SQLITE_READONLY); /health answers', async () => {
      const home = tempDir('read-only');
      const repo = repoWithRemote(tempDir('repos'), 'app', { 'README.md': '# app\n' });
      await homeWithData(home, repo.dir);
      for (const name of readdirSync(home, { recursive: true }) as string[])
        chownSync(join(home, name), nobody, nobody);
      chownSync(home, nobody, nobody);
      chmodSync(join(home, 'workbench.db'), 0o444);

      // Workspace packages from their sources (the `@keel/source` export condition), as in the tests.
      const child = spawn(
        'setpriv',
        [
          `--reuid=${nobody}`,
          `--regid=${nobody}`,
          '--clear-groups',
          process.execPath,
          '--conditions=@keel/source',
          join(import.meta.dirname, 'read-only-worker.ts'),
          home,
        ],
        { stdio: ['pipe', 'pipe', 'pipe'] },
      );
      const exited = new Promise((resolve) => child.once('exit', resolve));
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += String(chunk);
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let output = '';
          child.stdout.on('data', (chunk) => {
            output += String(chunk);
            if (output.includes('\n')) resolve(output.trim());
          });
          child.once('exit', (code) => reject(new Error(`the workbench ended (exit ${code}): ${stderr}`)));
        });
        // Start-up crash repair could not write: skipped with a warning that says why, and the service runs.
        expect(stderr).toMatch(/crash repair at start-up skipped: .*read-only.*\(SQLITE_READONLY\)/);
        const api = apiAt(url);
        expect((await api('GET', '/health')).status).toBe(200);
        expect((await api('GET', '/api/settings')).body).toMatchObject({ model: 'm', api_key_set: true });
        const readOnly = {
          code: 'STORE_ERROR',
          message: expect.stringMatching(/read-only/),
          details: { reason: 'read_only', code: 'SQLITE_READONLY' },
        };
        const settings = await api('PUT', '/api/settings', { model: 'other' });
        expect(settings).toMatchObject({ status: 500, body: { error: readOnly } });
        const [project] = (await api('GET', '/api/projects')).body.projects;
        const renamed = await api('PUT', `/api/projects/${project.id}`, { name: 'renamed' });
        expect(renamed).toMatchObject({ status: 500, body: { error: readOnly } });
        expect((await api('GET', `/api/projects/${project.id}`)).body.name).toBe('p');
        expect((await api('GET', '/api/settings')).body.model).toBe('m');
      } finally {
        child.stdin.end();
        await exited;
      }
      chmodSync(join(home, 'workbench.db'), 0o644);
      expect(integrityOf(join(home, 'workbench.db'))).toBe('ok');
    });
  },
);

describe.skipIf(cannotMount)(
  `the workbench on a read-only file system${cannotMount ? ` (skipped: ${cannotMount})` : ''}`,
  () => {
    test('it does not start, and says why: STORE_ERROR naming the database (read_only, EROFS)', async () => {
      const disk = mountSmallDisk();
      try {
        const home = join(disk.path, 'home');
        await homeWithData(home, repoWithRemote(tempDir('repos'), 'app', { 'README.md': '# app\n' }).dir);
        disk.readOnly();
        await expect(createWorkbench({ home, env: {} })).rejects.toMatchObject({
          code: 'STORE_ERROR',
          message: expect.stringContaining(
            `Could not open the database ${join(home, 'workbench.db')}: the database or its directory is read-only`,
          ),
          details: { reason: 'read_only', code: 'EROFS' },
        });
        disk.writable();
        const workbench = await createWorkbench({ home, env: {} });
        try {
          const api = apiAt(await workbench.listen(0));
          expect((await api('GET', '/api/projects')).body.projects).toHaveLength(1);
        } finally {
          await workbench.close();
        }
      } finally {
        disk.remove();
      }
    });
  },
);
