// A repository's setup command (issue #37): what installs its dependencies into a task's workspace, found
// from its files alone, as its checks are (nothing is run). The lockfile decides, and the command is built
// from fixed words only, never from a file's text: a file's text only chooses between our fixed commands.
// A symbolic link is never read or looked through: it counts as absent. No lockfile, no install: an
// install without one resolves versions at install time (not what the repository was tested with).
import { isFile, readNoFollow, readSmallFile } from '../files/index.ts';

/** One part of a repository's setup, e.g. `npm ci` from package-lock.json. */
export interface SetupPart {
  command: string;
  /** Where it was found, in words, e.g. 'package-lock.json'. */
  source: string;
}

/** The setup of a repository as a project stores it (default time limit 10 minutes, exec's maximum). */
export interface SetupSetting {
  command: string;
  timeout_ms: number;
}

export const defaultSetupTimeoutMs = 600_000;

// A yarn.lock is only sniffed for its format, within this size (a monorepo's lockfile can be many MB).
const maxLockfileBytes = 16 * 1024 * 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Yarn 2+ ("berry") or classic yarn 1, from package.json's packageManager, .yarnrc.yml, then the lockfile. */
async function isYarnBerry(dir: string): Promise<boolean> {
  const text = await readSmallFile(dir, 'package.json');
  let manifest: unknown;
  try {
    manifest = text === undefined ? undefined : JSON.parse(text);
  } catch {
    manifest = undefined;
  }
  const declared = isRecord(manifest) ? manifest.packageManager : undefined;
  const major = typeof declared === 'string' ? /^yarn@(\d+)\./.exec(declared)?.[1] : undefined;
  if (major !== undefined) return Number(major) >= 2;
  if (await isFile(dir, '.yarnrc.yml')) return true;
  const lock = await readNoFollow(dir, 'yarn.lock', { maxBytes: maxLockfileBytes }).catch(() => undefined);
  if (lock?.why !== undefined || lock === undefined) return false;
  // Classic's lockfile says `# yarn lockfile v1`; berry's is YAML with a `__metadata:` key.
  return !/^# yarn lockfile v1\s*$/m.test(lock.text) && /^__metadata:/m.test(lock.text);
}

async function javascript(dir: string): Promise<SetupPart[]> {
  // As the checks' runner: pnpm, yarn, bun, then npm. Each frozen: the lockfile as committed, or an error.
  if (await isFile(dir, 'pnpm-lock.yaml')) {
    return [{ command: 'pnpm install --frozen-lockfile', source: 'pnpm-lock.yaml' }];
  }
  if (await isFile(dir, 'yarn.lock')) {
    return (await isYarnBerry(dir))
      ? [{ command: 'yarn install --immutable', source: 'yarn.lock (yarn 2+)' }]
      : [{ command: 'yarn install --frozen-lockfile', source: 'yarn.lock (yarn 1)' }];
  }
  for (const lockfile of ['bun.lock', 'bun.lockb']) {
    // Copied from bun's cache, not hard-linked: a link would let the agent write into the shared cache.
    if (await isFile(dir, lockfile)) {
      return [{ command: 'bun install --frozen-lockfile --backend=copyfile', source: lockfile }];
    }
  }
  for (const lockfile of ['package-lock.json', 'npm-shrinkwrap.json']) {
    if (await isFile(dir, lockfile)) return [{ command: 'npm ci', source: lockfile }];
  }
  return [];
}

async function python(dir: string): Promise<SetupPart[]> {
  if (await isFile(dir, 'uv.lock')) return [{ command: 'uv sync --locked', source: 'uv.lock' }];
  if (await isFile(dir, 'poetry.lock')) {
    return [{ command: 'poetry install --no-interaction', source: 'poetry.lock' }];
  }
  if (await isFile(dir, 'requirements.txt')) {
    // Into a virtualenv in the workspace: never the machine's Python, and gone with the task.
    return [
      {
        command: 'python3 -m venv .venv && .venv/bin/pip install -r requirements.txt',
        source: 'requirements.txt',
      },
    ];
  }
  return [];
}

async function rust(dir: string): Promise<SetupPart[]> {
  if (!(await isFile(dir, 'Cargo.toml'))) return [];
  return (await isFile(dir, 'Cargo.lock'))
    ? [{ command: 'cargo fetch --locked', source: 'Cargo.lock' }]
    : [{ command: 'cargo fetch', source: 'Cargo.toml' }];
}

async function go(dir: string): Promise<SetupPart[]> {
  const text = await readSmallFile(dir, 'go.mod');
  // A go.mod without its module directive is not one the go tool accepts.
  if (text === undefined || !/^\s*module\s+\S/m.test(text)) return [];
  return [{ command: 'go mod download', source: 'go.mod' }];
}

const ecosystems = [javascript, python, rust, go];

/** What installs the dependencies of the repository at `dir`: one part per ecosystem it uses, or none. */
export async function detectSetup(dir: string): Promise<SetupPart[]> {
  const parts: SetupPart[] = [];
  for (const ecosystem of ecosystems) parts.push(...(await ecosystem(dir)));
  return parts;
}

/** The setup found in the repository at `dir` as a project stores it: the parts chained, or null (none). */
export async function setupSettingOf(dir: string): Promise<SetupSetting | null> {
  const parts = await detectSetup(dir);
  if (parts.length === 0) return null;
  return { command: parts.map((part) => part.command).join(' && '), timeout_ms: defaultSetupTimeoutMs };
}
