// A repository's preview (run/dev) command (issue #37), found from its files alone, as its checks and setup
// are: nothing is run. The command is built from fixed words only, never from a file's text: a file's text
// only chooses between our fixed commands (which script exists, whether the dev script is Vite's, which
// does not read PORT). A symbolic link is never read or looked through: it counts as absent.
import { isFile, readSmallFile } from '../files/index.ts';

/** A repository's preview as a project stores it. */
export interface PreviewSetting {
  command: string;
}

/** The preview command found, and where, in words (e.g. `package.json scripts.dev`). */
export interface PreviewCommand extends PreviewSetting {
  source: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How each package manager runs the scripts `dev` and `start`, and passes arguments on to one. */
interface Manager {
  lockfiles: readonly string[];
  run: (script: 'dev' | 'start') => string;
  /** The run of `script` with `args` passed on to the program the script starts. */
  withArgs: (script: 'dev' | 'start', args: string) => string;
}

// As the checks' runner: pnpm, yarn, bun, then npm (no lockfile: npm).
const managers: readonly Manager[] = [
  {
    lockfiles: ['pnpm-lock.yaml'],
    run: (script) => (script === 'start' ? 'pnpm start' : `pnpm run ${script}`),
    withArgs: (script, args) => `pnpm run ${script} ${args}`,
  },
  {
    lockfiles: ['yarn.lock'],
    run: (script) => `yarn ${script}`,
    withArgs: (script, args) => `yarn ${script} ${args}`,
  },
  {
    lockfiles: ['bun.lock', 'bun.lockb'],
    run: (script) => `bun run ${script}`,
    withArgs: (script, args) => `bun run ${script} ${args}`,
  },
];

const npm: Manager = {
  lockfiles: [],
  run: (script) => (script === 'start' ? 'npm start' : `npm run ${script}`),
  withArgs: (script, args) => `npm run ${script} -- ${args}`,
};

async function managerOf(dir: string): Promise<Manager> {
  for (const manager of managers) {
    for (const lockfile of manager.lockfiles) if (await isFile(dir, lockfile)) return manager;
  }
  return npm;
}

// Vite's dev server takes its port from its config or --port, not from PORT: told on the command line.
const viteArgs = '--port $PORT --strictPort --host 127.0.0.1';

async function fromPackageJson(dir: string): Promise<PreviewCommand | undefined> {
  const text = await readSmallFile(dir, 'package.json');
  let manifest: unknown;
  try {
    manifest = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(manifest) || !isRecord(manifest.scripts)) return undefined;
  const scripts = manifest.scripts;
  const script = (['dev', 'start'] as const).find(
    (name) => typeof scripts[name] === 'string' && (scripts[name] as string).trim() !== '',
  );
  if (!script) return undefined;
  const manager = await managerOf(dir);
  const body = (scripts[script] as string).trim();
  const vite = /^vite(\s+(dev|serve))?$/.test(body);
  return {
    command: vite ? manager.withArgs(script, viteArgs) : manager.run(script),
    source: `package.json scripts.${script}${vite ? ' (Vite: the port on its command line)' : ''}`,
  };
}

async function fromDjango(dir: string): Promise<PreviewCommand | undefined> {
  if (!(await isFile(dir, 'manage.py'))) return undefined;
  // python3 is the workspace's .venv one when setup made it (the preview runs with it activated).
  return { command: 'python3 manage.py runserver 127.0.0.1:$PORT', source: 'manage.py' };
}

async function fromRails(dir: string): Promise<PreviewCommand | undefined> {
  if (!(await isFile(dir, 'bin/rails'))) return undefined;
  return { command: 'bin/rails server -b 127.0.0.1 -p $PORT', source: 'bin/rails' };
}

async function fromGo(dir: string): Promise<PreviewCommand | undefined> {
  if (!(await isFile(dir, 'go.mod')) || !(await isFile(dir, 'main.go'))) return undefined;
  return { command: 'go run .', source: 'main.go' };
}

async function fromCargo(dir: string): Promise<PreviewCommand | undefined> {
  if (!(await isFile(dir, 'Cargo.toml')) || !(await isFile(dir, 'src/main.rs'))) return undefined;
  return { command: 'cargo run', source: 'src/main.rs' };
}

// First found wins, in this order.
const sources = [fromPackageJson, fromDjango, fromRails, fromGo, fromCargo];

/** The preview command of the repository at `dir`, or undefined when none is found. */
export async function detectPreview(dir: string): Promise<PreviewCommand | undefined> {
  for (const source of sources) {
    const found = await source(dir);
    if (found) return found;
  }
  return undefined;
}

/** The preview found in the repository at `dir` as a project stores it, or null (none). */
export async function previewSettingOf(dir: string): Promise<PreviewSetting | null> {
  const found = await detectPreview(dir);
  return found ? { command: found.command } : null;
}
