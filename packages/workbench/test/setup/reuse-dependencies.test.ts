// Issue #37 item 3, the decision and the copy on their own, on real repositories and real npm installs:
// installs that are not of the lockfile (without dev dependencies), links out of the workspace, setup commands that are not the lockfile's, and the
// records pnpm and yarn leave (their files, as they write them: neither manager is installed here).
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createWorkspace } from '../../src/git/index.ts';
import { reuseInstalledDependencies } from '../../src/setup/index.ts';
import { repoWithRemote, tempDir } from '../harness.ts';
import { npmRepository } from './npm-fixture.ts';

const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/** A task's workspace of `source`, as init's clone step makes it. */
async function workspaceOf(root: string, source: string): Promise<string> {
  const created = await createWorkspace({ source, dest: join(root, 'task', 'ws'), branch: 'keel/t1' });
  return created.dir;
}

function gitStatus(dir: string): string {
  return execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8', env: gitEnv });
}

// Real npm installs and clones on a shared machine: seconds each.
describe('reuseInstalledDependencies', { timeout: 90_000 }, () => {
  test('an install without the dev dependencies is not one of the lockfile', async () => {
    const root = tempDir('reuse-omit');
    const repo = npmRepository(root);
    // tiny as a dev dependency, installed with --omit=dev: node_modules lacks it.
    const manifest = JSON.parse(readFileSync(join(repo.dir, 'package.json'), 'utf8'));
    manifest.devDependencies = manifest.dependencies;
    delete manifest.dependencies;
    writeFileSync(join(repo.dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const quiet = ['--offline', '--no-audit', '--no-fund', '--loglevel=error'];
    execFileSync('npm', ['install', ...quiet], { cwd: repo.dir });
    execFileSync('git', ['commit', '-qam', 'dev'], { cwd: repo.dir, env: gitEnv });
    execFileSync('npm', ['ci', '--omit=dev', ...quiet], { cwd: repo.dir });
    const workspace = await workspaceOf(root, repo.dir);
    const reuse = await reuseInstalledDependencies({ source: repo.dir, workspace, command: 'npm ci' });
    expect(reuse).toEqual({
      reused: false,
      why: 'its node_modules is not an install of its package-lock.json: node_modules/tiny of the lockfile is not installed',
    });
    expect(existsSync(join(workspace, 'node_modules'))).toBe(false);
  });

  test('a relative link out of the workspace refuses the reuse and leaves nothing behind', async () => {
    const root = tempDir('reuse-relative');
    const repo = npmRepository(root, { installed: true });
    mkdirSync(join(root, 'elsewhere'));
    // From the source it is root/elsewhere; from the workspace, a folder beside it: out of it either way.
    symlinkSync('../../../elsewhere', join(repo.dir, 'node_modules', 'tiny', 'escape'));
    const workspace = await workspaceOf(root, repo.dir);
    const reuse = await reuseInstalledDependencies({ source: repo.dir, workspace, command: 'npm ci' });
    expect(reuse).toEqual({
      reused: false,
      why: 'node_modules/tiny/escape links outside the workspace (to ../../../elsewhere)',
    });
    expect(readdirSync(workspace).filter((name) => name.includes('node_modules'))).toEqual([]);
    expect(gitStatus(workspace)).toBe('');
  });

  test('not reused: another setup command, no node_modules, a linked node_modules, a package.json that differs', async () => {
    const root = tempDir('reuse-refusals');
    const repo = npmRepository(root);
    const workspace = await workspaceOf(root, repo.dir);
    const reuse = (command = 'npm ci') =>
      reuseInstalledDependencies({ source: repo.dir, workspace, command });
    expect(await reuse()).toEqual({ reused: false, why: 'the source repository has no node_modules' });
    mkdirSync(join(root, 'modules'));
    symlinkSync(join(root, 'modules'), join(repo.dir, 'node_modules'));
    expect(await reuse()).toEqual({
      reused: false,
      why: "the source repository's node_modules is a link, not a folder",
    });
    execFileSync('rm', [join(repo.dir, 'node_modules')]);
    execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: repo.dir,
    });
    expect(await reuse('npm ci --no-audit')).toEqual({
      reused: false,
      why: 'the setup command is not `npm ci` alone',
    });
    expect(await reuse('npm ci && npm run build')).toMatchObject({ reused: false });
    writeFileSync(join(repo.dir, 'package.json'), '{"name": "app", "version": "1.0.1"}\n');
    expect(await reuse()).toEqual({ reused: false, why: "package.json differs from the source's" });
    expect(existsSync(join(workspace, 'node_modules'))).toBe(false);
  });

  test('a repository that is not JavaScript: not reused, nothing to say', async () => {
    const root = tempDir('reuse-go');
    const repo = repoWithRemote(root, 'svc', { 'go.mod': 'module example.com/svc\n\ngo 1.22\n' });
    mkdirSync(join(repo.dir, 'node_modules'));
    const workspace = await workspaceOf(root, repo.dir);
    expect(
      await reuseInstalledDependencies({ source: repo.dir, workspace, command: 'go mod download' }),
    ).toEqual({
      reused: false,
    });
  });

  test('pnpm and yarn: their record of the install must be no older than the lockfile; bun has none', async () => {
    const cases = [
      { lockfile: 'pnpm-lock.yaml', record: '.modules.yaml', command: 'pnpm install --frozen-lockfile' },
      { lockfile: 'yarn.lock', record: '.yarn-integrity', command: 'yarn install --frozen-lockfile' },
    ];
    for (const { lockfile, record, command } of cases) {
      const root = tempDir('reuse-record');
      const lock = lockfile === 'yarn.lock' ? '# yarn lockfile v1\n\n' : "lockfileVersion: '9.0'\n";
      const repo = repoWithRemote(root, 'app', { 'package.json': '{"name": "app"}\n', [lockfile]: lock });
      const modules = join(repo.dir, 'node_modules');
      mkdirSync(join(modules, 'dep'), { recursive: true });
      writeFileSync(join(modules, 'dep', 'index.js'), 'module.exports = 1;\n');
      // pnpm's layout: a relative link into its store inside node_modules.
      mkdirSync(join(modules, '.pnpm', 'other@1.0.0', 'node_modules', 'other'), { recursive: true });
      symlinkSync('.pnpm/other@1.0.0/node_modules/other', join(modules, 'other'));
      writeFileSync(join(modules, record), 'written by the install\n');
      const past = new Date(Date.now() - 60_000);
      utimesSync(join(repo.dir, lockfile), past, past);
      const workspace = await workspaceOf(root, repo.dir);
      expect(await reuseInstalledDependencies({ source: repo.dir, workspace, command })).toMatchObject({
        reused: true,
        folders: ['node_modules'],
      });
      expect(readlinkSync(join(workspace, 'node_modules', 'other'))).toBe(
        '.pnpm/other@1.0.0/node_modules/other',
      );

      // A pull that changed the lockfile after the install (here: the same text, written again).
      const again = await workspaceOf(tempDir('reuse-record-again'), repo.dir);
      utimesSync(join(modules, record), past, past);
      writeFileSync(join(repo.dir, lockfile), lock);
      expect(await reuseInstalledDependencies({ source: repo.dir, workspace: again, command })).toEqual({
        reused: false,
        why: `its ${lockfile} changed after its last install`,
      });
    }
    const root = tempDir('reuse-bun');
    const repo = repoWithRemote(root, 'app', { 'package.json': '{"name": "app"}\n', 'bun.lock': '{}\n' });
    mkdirSync(join(repo.dir, 'node_modules'));
    const workspace = await workspaceOf(root, repo.dir);
    const command = 'bun install --frozen-lockfile --backend=copyfile';
    expect(await reuseInstalledDependencies({ source: repo.dir, workspace, command })).toEqual({
      reused: false,
      why: 'bun leaves no record in node_modules to check it against its lockfile',
    });
  });
});
