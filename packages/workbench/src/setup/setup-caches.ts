import { homedir } from 'node:os';
import { join } from 'node:path';

// Where a setup's package managers keep their downloads, so the second task's install is fast. The
// JavaScript and Python managers get the workbench's own caches (WORKBENCH_HOME/caches/<manager>), never
// the user's ~/.npm or ~/.cache/pip: a repository's install scripts run during setup, and a cache they can
// write is one the user's own installs would trust. What they install lands in the workspace (node_modules,
// .venv), copied, never linked back into a cache the agent could then write through. Cargo and Go are the
// exception: `cargo test` and `go test` read their crates and modules from ~/.cargo and ~/go/pkg/mod in the
// agent phase (the sandbox shows those read-only), so their fetch writes there.

/** The cache roots a setup command may write (`allowed_roots` of that command only) and the variables naming them. */
export interface SetupCaches {
  env: Record<string, string>;
  roots: string[];
}

type Manager = (cache: (name: string) => string, home: Home) => SetupCaches;

interface Home {
  dir: string;
  env: NodeJS.ProcessEnv;
}

const managers: Record<string, Manager> = {
  npm: (cache) => ({ env: { npm_config_cache: cache('npm') }, roots: [cache('npm')] }),
  // pnpm hard-links from its store by default: copied instead, so no workspace file is the store's file.
  pnpm: (cache) => ({
    env: { npm_config_store_dir: cache('pnpm'), npm_config_package_import_method: 'copy' },
    roots: [cache('pnpm')],
  }),
  yarn: (cache) => ({ env: { YARN_CACHE_FOLDER: cache('yarn') }, roots: [cache('yarn')] }),
  bun: (cache) => ({ env: { BUN_INSTALL_CACHE_DIR: cache('bun') }, roots: [cache('bun')] }),
  // uv hard-links from its cache on Linux: copied instead. A Python uv downloaded would sit in the home the
  // sandbox hides, leaving a .venv that points at nothing in the agent phase: the machine's Python only.
  uv: (cache) => ({
    env: { UV_CACHE_DIR: cache('uv'), UV_LINK_MODE: 'copy', UV_PYTHON_DOWNLOADS: 'never' },
    roots: [cache('uv')],
  }),
  pip: (cache) => ({ env: { PIP_CACHE_DIR: cache('pip') }, roots: [cache('pip')] }),
  // The virtualenv in the workspace (.venv), not in poetry's cache folder the agent phase cannot read.
  poetry: (cache) => ({
    env: { POETRY_CACHE_DIR: cache('poetry'), POETRY_VIRTUALENVS_IN_PROJECT: 'true' },
    roots: [cache('poetry')],
  }),
  cargo: (_cache, home) => {
    const cargoHome = home.env.CARGO_HOME || join(home.dir, '.cargo');
    return { env: {}, roots: [join(cargoHome, 'registry'), join(cargoHome, 'git')] };
  },
  go: (_cache, home) => {
    const gopath = home.env.GOPATH?.split(':')[0] || join(home.dir, 'go');
    return { env: {}, roots: [home.env.GOMODCACHE || join(gopath, 'pkg', 'mod')] };
  },
};

// `yarn install --immutable` is yarn 2+: its Plug'n'Play reads the packages' zip files from the cache at
// run time, so the cache stays in the workspace (.yarn/cache) where the checks can read it.
const yarnBerry = { env: { YARN_ENABLE_GLOBAL_CACHE: 'false' }, roots: [] };

/** The managers a command line names as a program (`npm ci`, `.venv/bin/pip install …`), by word. */
function managersIn(command: string): string[] {
  const words = command.split(/[\s;&|()]+/).map((word) => word.split('/').at(-1) ?? '');
  const named = words.map((word) => (word === 'pip3' ? 'pip' : word));
  return Object.keys(managers).filter((name) => named.includes(name));
}

/**
 * The caches of the managers `command` runs: under `cacheDir` (the workbench's), or the user's own for Cargo
 * and Go (HOME, CARGO_HOME, GOPATH and GOMODCACHE from `env`, as the command gets them).
 */
export function setupCaches(command: string, cacheDir: string, env: NodeJS.ProcessEnv): SetupCaches {
  const home = { dir: env.HOME || homedir(), env };
  const cache = (name: string) => join(cacheDir, name);
  const found = managersIn(command).map((name) =>
    name === 'yarn' && /\s--immutable\b/.test(command) ? yarnBerry : (managers[name] as Manager)(cache, home),
  );
  return {
    env: Object.assign({}, ...found.map((each) => each.env)),
    roots: [...new Set(found.flatMap((each) => each.roots))],
  };
}
