// A JavaScript repository whose test needs an npm dependency, with no registry: the dependency is a tarball
// made by `npm pack` and committed in the repository (`file:vendor/…`), and package-lock.json is written by
// a real `npm install`. Without `npm ci`, `npm test` fails: `tiny-test: not found`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoWithRemote } from '../harness.ts';

const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const quiet = ['--offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** `npm pack` of a one-file package `name` with a bin `<name>-test` that prints `<name> ok`, into `dest`. */
export function packTiny(root: string, name: string, dest: string, version = '1.0.0'): string {
  const dir = join(root, `${name}-${version}-src`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name, version, bin: { [`${name}-test`]: 'bin.js' } }),
  );
  writeFileSync(join(dir, 'bin.js'), `#!/usr/bin/env node\nconsole.log('${name} ok');\n`);
  mkdirSync(dest, { recursive: true });
  execFileSync('npm', ['pack', '--pack-destination', dest, '--loglevel=error'], { cwd: dir });
  return `${name}-${version}.tgz`;
}

/**
 * The repository `app` under `root`: `npm test` runs the dependency's bin. With `outOfSync`, package.json
 * names a second dependency its package-lock.json does not have (then `npm ci` refuses to install). With
 * `installed`, the repository has its node_modules as the user's tree has (a real `npm ci`, after the commit).
 */
export function npmRepository(root: string, options: { outOfSync?: boolean; installed?: boolean } = {}) {
  const repo = repoWithRemote(root, 'app', { 'README.md': '# app\n' });
  const vendor = join(repo.dir, 'vendor');
  const dependencies: Record<string, string> = { tiny: `file:vendor/${packTiny(root, 'tiny', vendor)}` };
  const manifest = (deps: Record<string, string>) =>
    `${JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'tiny-test' }, dependencies: deps }, null, 2)}\n`;
  writeFileSync(join(repo.dir, 'package.json'), manifest(dependencies));
  execFileSync('npm', ['install', ...quiet], { cwd: repo.dir });
  if (options.outOfSync) {
    dependencies.other = `file:vendor/${packTiny(root, 'other', vendor)}`;
    writeFileSync(join(repo.dir, 'package.json'), manifest(dependencies));
  }
  // No .gitignore: what setup installs must still stay out of the task's change.
  rmSync(join(repo.dir, 'node_modules'), { recursive: true, force: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo.dir, env: gitEnv });
  git('add', 'package.json', 'package-lock.json', 'vendor');
  git('commit', '-q', '-m', 'a dependency');
  if (options.installed) execFileSync('npm', ['ci', ...quiet], { cwd: repo.dir });
  return repo;
}

/**
 * An npm monorepo `mono` under `root` (workspaces `packages/*`): the root depends on tiny 1.0.0 and
 * packages/a on tiny 2.0.0, so npm puts the second in packages/a/node_modules and links node_modules/a to
 * ../packages/a. Installed (a real `npm install`), as the user's tree is.
 */
export function npmMonorepo(root: string) {
  const repo = repoWithRemote(root, 'mono', {
    'packages/a/package.json': `${JSON.stringify({ name: 'a', version: '1.0.0', dependencies: { tiny: 'file:../../vendor/tiny-2.0.0.tgz' } })}\n`,
  });
  const vendor = join(repo.dir, 'vendor');
  packTiny(root, 'tiny', vendor, '2.0.0');
  const manifest = {
    name: 'mono',
    version: '1.0.0',
    workspaces: ['packages/*'],
    dependencies: { tiny: `file:vendor/${packTiny(root, 'tiny', vendor)}` },
  };
  writeFileSync(join(repo.dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  execFileSync('npm', ['install', ...quiet], { cwd: repo.dir });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo.dir, env: gitEnv });
  git('add', 'package.json', 'package-lock.json', 'vendor');
  git('commit', '-q', '-m', 'dependencies');
  return repo;
}
