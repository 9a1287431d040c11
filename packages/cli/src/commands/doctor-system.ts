import { existsSync, readFileSync } from 'node:fs';
import { access, constants, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, type RuntimeConfig } from '@keel/runtime';
import { spawnGit } from '@keel/runtime/internal';
import { type DoctorCheck, fail, messageOf, ok, warn } from './doctor-check.ts';

/** How long a program `keel doctor` starts (git) may take before it counts as not answering. */
const programTimeoutMs = 5000;

/** The running Node against the `engines` of @keel/cli's package.json. */
export function nodeCheck(): DoctorCheck {
  const range = cliManifest()?.engines?.node;
  const minimum = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range?.trim() ?? '');
  if (!minimum) {
    return warn(
      'node',
      `Node ${process.version}; the version Keel needs could not be read (engines.node: ${range ?? 'missing'}).`,
      'Reinstall Keel (npm install -g @keel/cli): its package.json is incomplete.',
    );
  }
  const needed = minimum.slice(1).map((part) => Number(part ?? 0));
  const running = process.versions.node.split('.').map(Number);
  const newer = compareVersions(running, needed) >= 0;
  return newer
    ? ok('node', `Node ${process.version} (Keel needs ${range})`)
    : fail(
        'node',
        `Node ${process.version} is older than Keel needs (${range}).`,
        `Install Node ${needed.join('.')} or newer (nodejs.org, or nvm install 24) and start keel with it.`,
      );
}

/** git on PATH, with its version. */
export async function gitCheck(): Promise<DoctorCheck> {
  const run = await spawnGit(tmpdir(), ['--version'], { timeoutMs: programTimeoutMs });
  const version = run.stdout.toString('utf8').trim();
  if (run.code === 0 && version) return ok('git', version);
  const why =
    run.spawnError?.code === 'ENOENT'
      ? 'git is not on PATH'
      : `git --version ${run.timedOut ? 'did not answer in time' : `failed: ${firstLine(run.stderr) || `exit ${run.code}`}`}`;
  return warn(
    'git',
    `${why}: the agent's git commands (history, diffs, commits) will not work.`,
    'Install git (apt-get install git, brew install git) or add its folder to PATH.',
  );
}

/** RUNTIME_HOME exists (it is created if not) and can be written: the store, approvals and memory live there. */
export async function runtimeHomeCheck(home: string): Promise<DoctorCheck> {
  try {
    await mkdir(home, { recursive: true });
    await access(home, constants.W_OK);
    return ok('runtime-home', `${home} is writable`);
  } catch (error) {
    return fail(
      'runtime-home',
      `${home} cannot be written: ${messageOf(error)}`,
      'Set RUNTIME_HOME to a folder you can write (default ~/.runtime), or fix the permissions of this one.',
    );
  }
}

/** The run store the workdir's configuration picks, opened as a run opens it, and read once. */
export async function storeCheck(
  env: NodeJS.ProcessEnv,
  home: string,
  workdir: string,
  config: RuntimeConfig,
): Promise<DoctorCheck> {
  const store = config.store ?? { kind: 'sqlite' as const };
  const where =
    store.kind === 'sqlite'
      ? `SQLite at ${store.path ? resolve(workdir, store.path) : join(home, 'keel.db')}`
      : `PostgreSQL${store.schema ? ` (schema ${store.schema})` : ''}`;
  let runtime: ReturnType<typeof createRuntime> | undefined;
  try {
    // Opening the runtime opens its SQLite database already: a failure there is this check's too.
    runtime = createRuntime({ env, workdir: existsSync(workdir) ? workdir : home });
    await runtime.runs.list({ limit: 1 });
    return ok('store', `${where}: reachable`);
  } catch (error) {
    return fail(
      'store',
      `${where} cannot be used: ${messageOf(error)}`,
      store.kind === 'sqlite'
        ? 'Make sure the database file and its folder can be written, or choose another with store.path (keel config set store.path <file>).'
        : 'Check store.url and that the PostgreSQL server runs (keel config show); @keel/store-postgres must be installed.',
    );
  } finally {
    await runtime?.close().catch(() => undefined);
  }
}

/** The version triple a > b (positive), a = b (0) or a < b (negative). */
function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < 3; index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * @keel/cli's package.json, found upwards from this module: it runs from src/commands, dist/commands or the
 * flat bundle/, each at its own depth.
 */
function cliManifest(): { engines?: { node?: string } } | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; engines?: { node?: string } };
    if (manifest.name === '@keel/cli') return manifest;
  }
  return undefined;
}

export function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}
