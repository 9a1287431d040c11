// A task's setup on a repository with a large node_modules (issue #37 item 3): taking the source repository's
// installed node_modules (`reuseInstalledDependencies`: its checks, the copy, the links checked) against
// `npm ci --prefer-offline` with a warm cache in a workspace of the same commit, in the same run; and against
// a bare `cp -a --reflink=auto` of the same folder (the floor: what the checks and the link scan add).
// The repository is real: package.json names real packages, installed once from the npm registry into
// --cache DIR (default /tmp/keel-bench-setup-reuse) and kept there with its npm cache for later runs.
// Options: --cache DIR, --runs N (timed runs of each, after one warm-up each; default 3).
// No target: the figures and their ratio are printed, nothing passes or fails.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createWorkspace } from '../packages/workbench/src/git/index.ts';
import { reuseInstalledDependencies } from '../packages/workbench/src/setup/index.ts';
import { report } from './report.ts';

const { values } = parseArgs({
  options: { cache: { type: 'string' }, runs: { type: 'string' } },
});
const cache = values.cache ?? '/tmp/keel-bench-setup-reuse';
const runs = Number(values.runs ?? 3);
const repo = join(cache, 'app');
const npmCache = join(cache, 'npm-cache');
// A front-end repository's usual tooling and libraries: tens of thousands of files once installed.
const dependencies = [
  'typescript',
  'vitest',
  'vite',
  'eslint',
  'webpack',
  'jest',
  '@babel/core',
  '@babel/preset-env',
  'next',
  'react',
  'react-dom',
  '@mui/material',
  '@mui/icons-material',
  'rxjs',
  'lodash',
  'date-fns',
];

const npmEnv = { ...process.env, npm_config_cache: npmCache, npm_config_update_notifier: 'false' };
const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    stdio: 'pipe',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });

/** The repository, installed from the registry once (its npm cache warm from then on). */
async function installedRepository(): Promise<void> {
  const manifest = join(repo, 'package.json');
  const installed = existsSync(join(repo, 'node_modules', '.package-lock.json'))
    ? Object.keys(JSON.parse(await readFile(manifest, 'utf8')).devDependencies ?? {})
    : [];
  if (dependencies.every((name) => installed.includes(name))) return;
  await rm(repo, { recursive: true, force: true });
  await mkdir(repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  await writeFile(
    join(repo, 'package.json'),
    `${JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2)}\n`,
  );
  await writeFile(join(repo, '.gitignore'), 'node_modules/\n');
  execFileSync('npm', ['install', '--save-dev', ...quiet, ...dependencies], {
    cwd: repo,
    env: npmEnv,
    stdio: 'inherit',
  });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'dependencies');
}

/** Files, folders and links under `dir`. */
async function count(dir: string): Promise<{ files: number; folders: number; links: number }> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return {
    files: entries.filter((entry) => entry.isFile()).length,
    folders: entries.filter((entry) => entry.isDirectory()).length,
    links: entries.filter((entry) => entry.isSymbolicLink()).length,
  };
}

let made = 0;
/** A fresh task workspace of the repository (not timed). */
async function workspace(): Promise<string> {
  made += 1;
  return (
    await createWorkspace({
      source: repo,
      dest: join(cache, 'tasks', `t${made}`, 'app'),
      branch: `keel/t${made}`,
    })
  ).dir;
}

/** The median time (ms) of `work` in a fresh workspace each time, after one warm-up run. */
async function median(work: (dir: string) => Promise<void> | void): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const dir = await workspace();
    const started = performance.now();
    await work(dir);
    if (i > 0) times.push(performance.now() - started);
    execFileSync('rm', ['-rf', '--', dirname(dir)]);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

await installedRepository();
await rm(join(cache, 'tasks'), { recursive: true, force: true });
const size = await count(join(repo, 'node_modules'));
const du = execFileSync('du', ['-sm', join(repo, 'node_modules')], { encoding: 'utf8' }).split('\t')[0];
const filesystem = execFileSync('stat', ['-f', '-c', '%T', cache], { encoding: 'utf8' }).trim();
let method = '';

const reuseMs = await median(async (dir) => {
  const reuse = await reuseInstalledDependencies({ source: repo, workspace: dir, command: 'npm ci' });
  if (!reuse.reused) throw new Error(`not reused: ${reuse.why}`);
  method = reuse.method;
});
const npmCiMs = await median((dir) => {
  execFileSync('npm', ['ci', '--prefer-offline', ...quiet], { cwd: dir, env: npmEnv, stdio: 'inherit' });
});
const copyMs = await median((dir) => {
  execFileSync('cp', ['-a', '--reflink=auto', '--', join(repo, 'node_modules'), join(dir, 'node_modules')]);
});
await rm(join(cache, 'tasks'), { recursive: true, force: true });

const details = { ...size, megabytes: Number(du), filesystem, method, runs };
report({
  bench: 'workbench-setup-reuse',
  figure: "setup by reusing the source repository's node_modules (checks, copy, link scan)",
  value: reuseMs,
  unit: 'ms',
  reference: { name: 'npm ci --prefer-offline, warm cache', value: npmCiMs },
  details,
});
report({
  bench: 'workbench-setup-reuse',
  figure: "setup by reusing the source repository's node_modules (checks, copy, link scan)",
  value: reuseMs,
  unit: 'ms',
  reference: { name: 'cp -a --reflink=auto of node_modules alone', value: copyMs },
  details,
});
