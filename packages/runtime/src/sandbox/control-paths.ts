import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { comparableName } from '../files/index.ts';

/**
 * The files a later program reads as configuration or as programs to run, found in a writable root at
 * every depth (issue #36, item 1): each `.git` (a folder, a `gitdir:` file or a link), each `.runtime/` and
 * each `.gitmodules`, and inside every git folder the entries git reads as configuration, programs or
 * pointers elsewhere (`gitControlNames`). The sandboxes mount the existing ones read-only; what a command
 * creates anew is removed after it (`sweepNewControlPaths`).
 */
export interface ControlPath {
  readonly kind:
    | 'git-folder' // a `.git` folder, or a submodule's or worktree's git folder inside one: pinned
    | 'git-file' // a `gitdir:` file: read-only, so it cannot be pointed elsewhere
    | 'git-control' // an entry of a git folder in `gitControlNames`: read-only
    | 'runtime' // `.runtime/`: read-only
    | 'gitmodules'; // `.gitmodules`: read-only
  /** Absolute path (real, but for the last name). */
  readonly path: string;
}

/**
 * What git reads in its own folder as configuration, programs or pointers to another folder: `config` and
 * `config.worktree` (core.fsmonitor, aliases, drivers), `hooks/`, `info/` (attributes choosing drivers,
 * sparse-checkout), `commondir` and `gitdir` (another folder's config and hooks), `worktrees/` and
 * `modules/` (the git folders of worktrees and submodules, protected in turn), `branches/` and `remotes/`
 * (old-style remote URLs a push goes to). Everything else git writes in ordinary work (objects, refs,
 * logs, index, HEAD, packed-refs, COMMIT_EDITMSG, the `*_HEAD` files, rebase and merge state, locks)
 * stays writable, so a sandboxed command can still commit.
 */
export const gitControlNames: readonly string[] = [
  'config',
  'config.worktree',
  'hooks',
  'info',
  'commondir',
  'gitdir',
  'worktrees',
  'modules',
  'branches',
  'remotes',
];

/** Folders whose git folders are followed into (their children are git folders, not files). */
const nestedGitFolders = new Set(['worktrees', 'modules']);

/** Folders not walked into: dependencies, whose nested `.git` folders nobody runs git in. */
const skippedFolders = new Set(['node_modules']);

/** At most this many folders are walked per root (breadth first, so shallow paths come first). */
export const maxWalkedFolders = 10_000;

// Submodules' git folders nest (`.git/modules/a/modules/b`); deeper ones are not looked for.
const maxModuleDepth = 6;

/** The control paths of `roots` (absolute real paths), in walk order (parents before their contents). */
export async function findControlPaths(roots: readonly string[]): Promise<ControlPath[]> {
  const found: ControlPath[] = [];
  const seen = new Set<string>();
  const add = (entry: ControlPath) => {
    if (seen.has(entry.path)) return;
    seen.add(entry.path);
    found.push(entry);
  };
  for (const root of roots) await walkRoot(root, roots, add);
  return found;
}

async function walkRoot(root: string, roots: readonly string[], add: (entry: ControlPath) => void) {
  const queue = [root];
  for (let walked = 0; queue.length > 0 && walked < maxWalkedFolders; walked++) {
    const dir = queue.shift() as string;
    for (const entry of await entriesOf(dir)) {
      const path = join(dir, entry.name);
      const name = comparableName(entry.name);
      if (name === '.git') await gitEntry(path, entry, roots, add);
      else if (name === '.runtime') add({ kind: 'runtime', path });
      else if (name === '.gitmodules') add({ kind: 'gitmodules', path });
      else if (entry.isDirectory() && !skippedFolders.has(entry.name)) queue.push(path);
    }
  }
}

async function gitEntry(
  path: string,
  entry: Dirent,
  roots: readonly string[],
  add: (entry: ControlPath) => void,
): Promise<void> {
  if (entry.isDirectory()) return gitFolder(path, add, 0);
  if (entry.isFile()) return add({ kind: 'git-file', path });
  if (!entry.isSymbolicLink()) return;
  add({ kind: 'git-file', path });
  // The link itself cannot be pinned (a mount follows it); its folder is, when it is writable at all.
  const real = await realpath(path).catch(() => undefined);
  const inRoot = real && roots.some((root) => real === root || real.startsWith(root + sep));
  if (inRoot && (await statOf(real))?.isDirectory()) await gitFolder(real, add, 0);
}

/** A git folder, its control entries, then the git folders of its worktrees and submodules. */
async function gitFolder(dir: string, add: (entry: ControlPath) => void, depth: number): Promise<void> {
  add({ kind: 'git-folder', path: dir });
  for (const entry of await entriesOf(dir)) {
    const name = comparableName(entry.name);
    if (!gitControlNames.includes(name)) continue;
    const path = join(dir, entry.name);
    if (nestedGitFolders.has(name) && entry.isDirectory()) {
      add({ kind: 'git-folder', path });
      if (depth < maxModuleDepth) await nestedGitDirs(path, add, depth + 1);
    } else {
      add({ kind: 'git-control', path });
    }
  }
}

/** The git folders under `modules/` or `worktrees/` (a submodule named `libs/x` lives in `modules/libs/x`). */
async function nestedGitDirs(dir: string, add: (entry: ControlPath) => void, depth: number) {
  for (const entry of await entriesOf(dir)) {
    if (!entry.isDirectory()) continue;
    const child = join(dir, entry.name);
    if ((await statOf(join(child, 'HEAD')))?.isFile()) await gitFolder(child, add, depth);
    else if (depth < maxModuleDepth) await nestedGitDirs(child, add, depth + 1);
  }
}

async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

export async function statOf(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}

export async function lstatOf(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch {
    return undefined;
  }
}
