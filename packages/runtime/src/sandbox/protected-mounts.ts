import { lstatSync, readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import { join, sep } from 'node:path';

/**
 * How a sandbox keeps one protected path (the table in `files/protected-paths.ts`) from being changed by a
 * command, on top of the writable binds of the roots:
 * - `pin`: a folder bound onto itself, writable, so it is a mount point the command cannot rename, delete
 *   or replace (`.git`: git must still write its index, objects and refs inside);
 * - `read-only`: an existing file or folder mounted read-only (it cannot be written, deleted, renamed or
 *   replaced either, being a mount point);
 * - `stub`: a missing folder that must not appear: an empty read-only folder is mounted there. The mount
 *   point stays behind as an empty folder once the command ends (harmless to git and to Keel).
 */
export interface ProtectedMount {
  readonly kind: 'pin' | 'read-only' | 'stub';
  /** Absolute real path. */
  readonly path: string;
}

// Submodules' git folders nest (`.git/modules/a/modules/b`); deeper ones are not looked for.
const maxModuleDepth = 6;

/**
 * The mounts that protect the protected paths of `roots` (absolute real paths, the workdir first). Stubs
 * are made in the workdir only: elsewhere (an allowed root such as a cache folder) a command may still
 * create a missing `.runtime/` or `.git`, which the file tools refuse everywhere.
 */
export function protectedMounts(roots: readonly string[]): ProtectedMount[] {
  const mounts: ProtectedMount[] = [];
  roots.forEach((root, index) => {
    const stubs = index === 0;
    const git = join(root, '.git');
    const info = lstatOf(git);
    if (info === undefined) {
      if (stubs) mounts.push({ kind: 'stub', path: git });
    } else if (info.isDirectory()) {
      mounts.push({ kind: 'pin', path: git });
      gitFolder(git, mounts, 0);
    } else if (info.isFile()) {
      // A worktree's or submodule's `gitdir:` file: pinned, so it cannot be pointed at another folder.
      mounts.push({ kind: 'read-only', path: git });
    } else if (info.isSymbolicLink()) {
      // The link itself cannot be pinned (a mount follows it); its folder is, when it is writable at all.
      const real = realOf(git);
      if (real && roots.some((r) => real === r || real.startsWith(r + sep)) && statOf(real)?.isDirectory()) {
        mounts.push({ kind: 'pin', path: real });
        gitFolder(real, mounts, 0);
      }
    }
    existingOrStub(join(root, '.gitmodules'), false, mounts);
    existingOrStub(join(root, '.runtime'), stubs, mounts);
  });
  return mounts;
}

/** A git folder's config files and hooks, then its submodules' and worktrees' git folders. */
function gitFolder(dir: string, mounts: ProtectedMount[], depth: number): void {
  for (const name of ['config', 'config.worktree']) {
    if (statOf(join(dir, name))?.isFile()) mounts.push({ kind: 'read-only', path: join(dir, name) });
  }
  existingOrStub(join(dir, 'hooks'), true, mounts);
  for (const worktree of subfolders(join(dir, 'worktrees'))) {
    const file = join(worktree, 'config.worktree');
    if (statOf(file)?.isFile()) mounts.push({ kind: 'read-only', path: file });
  }
  if (depth < maxModuleDepth) modules(join(dir, 'modules'), mounts, depth + 1);
}

/** Git folders under `modules/` (a submodule named `libs/x` lives in `modules/libs/x`). */
function modules(dir: string, mounts: ProtectedMount[], depth: number): void {
  for (const child of subfolders(dir)) {
    if (statOf(join(child, 'HEAD'))?.isFile()) gitFolder(child, mounts, depth);
    else if (depth < maxModuleDepth) modules(child, mounts, depth + 1);
  }
}

/**
 * Read-only when it exists; a stub folder when nothing is there and `stub`. A dangling symbolic link is
 * left alone: a mount cannot be put on it (the command could still create its target).
 */
function existingOrStub(path: string, stub: boolean, mounts: ProtectedMount[]): void {
  if (statOf(path)) mounts.push({ kind: 'read-only', path });
  else if (stub && lstatOf(path) === undefined) mounts.push({ kind: 'stub', path });
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(dir, entry.name));
  } catch {
    return [];
  }
}

function lstatOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function realOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
