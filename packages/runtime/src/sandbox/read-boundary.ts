import { readdirSync, realpathSync } from 'node:fs';
import { userInfo } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';

/**
 * What a sandboxed command may not read (issue #22, item 4), the command side of `security.strict_read_boundary`:
 * the user's home, `WORKBENCH_HOME`, `RUNTIME_HOME` and the runtime's directory are hidden (ssh and cloud
 * keys, `secrets.json`, the runtime's database and config), then the workdir and allowed roots (wherever
 * they sit), the toolchains below and `sandbox.readable_paths` are shown again. The most specific path wins.
 */
export interface ReadBoundary {
  /** Real paths of the hidden folders. */
  readonly hidden: readonly string[];
  /**
   * Shown again read-only, existing paths with their folder's real path (a link itself is kept, so a
   * `~/.nvm` linked elsewhere still appears at `~/.nvm`).
   */
  readonly readable: readonly string[];
}

/**
 * Folders under a hidden home that builds need and that hold no credentials: installed toolchains and
 * package caches only (never `.ssh`, `.aws`, `.config`, `.npmrc`, `.netrc`, `.git-credentials`, `.docker`,
 * `.kube`, `.cargo/credentials.toml`, `.m2/settings.xml`, `.gradle/gradle.properties`). A trailing `*`
 * matches the names that start with what precedes it. The runtime README's Sandbox section lists them.
 */
export const toolchainPaths: readonly string[] = [
  '.nvm',
  '.volta',
  '.fnm',
  '.bun',
  '.deno',
  '.cargo/bin',
  '.cargo/registry',
  '.cargo/git',
  '.rustup',
  '.pyenv',
  '.rbenv',
  '.asdf',
  '.sdkman/candidates',
  '.dotnet',
  '.local/bin',
  '.local/lib/python*',
  'go/bin',
  'go/pkg/mod',
  '.m2/repository',
  '.gradle/caches',
  '.gradle/wrapper',
];

export interface ReadBoundaryOptions {
  /** Where HOME, WORKBENCH_HOME and RUNTIME_HOME are read. */
  env: NodeJS.ProcessEnv;
  /** More folders to hide: the runtime's directory. */
  hiddenPaths?: readonly (string | undefined)[] | undefined;
  /** Config `sandbox.readable_paths`: absolute, or `~/…` under HOME. */
  readablePaths?: readonly string[] | undefined;
}

/** The boundary on this machine: missing folders are left out (nothing to hide or show). */
export function readBoundaryOf(options: ReadBoundaryOptions): ReadBoundary {
  const { env } = options;
  const homes = unique([env.HOME, accountHome()].map(realOf));
  const hidden = unique(
    [...homes, ...[env.WORKBENCH_HOME, env.RUNTIME_HOME, ...(options.hiddenPaths ?? [])].map(realOf)].filter(
      (path) => path !== '/',
    ),
  );
  const wanted = [
    ...homes.flatMap((home) => toolchainPaths.flatMap((entry) => expand(home, entry))),
    ...(options.readablePaths ?? []).map((entry) => underHome(entry, env.HOME)),
  ];
  const readable = unique(
    wanted.map((path) => {
      const folder = realOf(dirname(path));
      return folder && realOf(path) ? join(folder, basename(path)) : undefined;
    }),
  );
  return { hidden, readable };
}

/** Whether `path` is `dir` or inside it. */
export function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** One mount of the boundary: `hide` an empty tmpfs, `read` a read-only bind, `write` a root's bind. */
export interface BoundaryLayer {
  readonly kind: 'hide' | 'read' | 'write';
  readonly path: string;
}

const kindOrder = { hide: 0, read: 1, write: 2 } as const;

/**
 * The hidden folders, readable paths and writable roots in mount order: parents first, so the most specific
 * one decides what a path is (a root inside a hidden home is writable, a hidden folder inside a root is
 * hidden); on the same path a root beats a readable path, which beats a hidden one.
 */
export function boundaryLayers(
  roots: readonly string[],
  boundary: ReadBoundary | undefined,
): BoundaryLayer[] {
  const layers: BoundaryLayer[] = [
    ...(boundary?.hidden ?? []).map((path) => ({ kind: 'hide' as const, path })),
    ...(boundary?.readable ?? []).map((path) => ({ kind: 'read' as const, path })),
    ...roots.map((path) => ({ kind: 'write' as const, path })),
  ];
  const depth = (path: string) => path.split(sep).filter(Boolean).length;
  return layers.sort((a, b) => depth(a.path) - depth(b.path) || kindOrder[a.kind] - kindOrder[b.kind]);
}

/** What decides `path`: the deepest layer holding it (the last in `boundaryLayers` order), if any. */
export function deciding(layers: readonly BoundaryLayer[], path: string): BoundaryLayer | undefined {
  return layers.findLast((layer) => within(path, layer.path));
}

function expand(home: string, entry: string): string[] {
  if (!entry.endsWith('*')) return [join(home, entry)];
  const dir = join(home, dirname(entry));
  const prefix = basename(entry).slice(0, -1);
  try {
    return readdirSync(dir)
      .filter((name) => name.startsWith(prefix))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}

function underHome(entry: string, home: string | undefined): string {
  if ((entry === '~' || entry.startsWith('~/')) && home) return join(home, entry.slice(1));
  return isAbsolute(entry) ? entry : resolve(entry);
}

/** The account's home from the user database, when HOME points elsewhere. */
function accountHome(): string | undefined {
  try {
    return userInfo().homedir || undefined;
  } catch {
    return undefined;
  }
}

function realOf(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return realpathSync(resolve(path));
  } catch {
    return undefined;
  }
}

function unique<T>(values: readonly (T | undefined)[]): T[] {
  return [...new Set(values.filter((value): value is T => value !== undefined))];
}
