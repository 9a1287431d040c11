import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { type ControlPath, findControlPaths, lstatOf } from './control-paths.ts';

/**
 * How a sandbox keeps one protected path (the table in `files/protected-paths.ts`, found at every depth by
 * `findControlPaths`) from being changed by a command, on top of the writable binds of the roots:
 * - `pin`: a folder bound onto itself, writable, so it is a mount point the command cannot rename, delete
 *   or replace (a `.git` folder: git must still write its index, objects and refs inside);
 * - `read-only`: an existing file or folder mounted read-only (it cannot be written, deleted, renamed or
 *   replaced either, being a mount point);
 * - `stub`: a missing folder that must not appear: an empty read-only folder is mounted there. The empty
 *   mount point left behind is removed after the command (`sweepNewControlPaths`).
 */
export interface ProtectedMount {
  readonly kind: 'pin' | 'read-only' | 'stub';
  /** Absolute real path. */
  readonly path: string;
}

// Missing folders of a git folder that git reads and a command could create: kept empty.
const stubbedInGit = ['hooks', 'info'];

/**
 * The mounts that protect the protected paths of `roots` (absolute real paths, the workdir first), at every
 * depth. Stubs for a missing `.git` and `.runtime/` are made at the top of the workdir only; missing ones
 * elsewhere, and the files git would read if they appeared (`commondir`, `config.worktree`), are removed
 * after the command instead.
 */
export async function protectedMounts(roots: readonly string[]): Promise<ProtectedMount[]> {
  const found = await findControlPaths(roots);
  const mounts: ProtectedMount[] = [];
  const workdir = roots[0];
  if (workdir !== undefined) {
    for (const name of ['.git', '.runtime']) {
      const path = join(workdir, name);
      if ((await lstatOf(path)) === undefined) mounts.push({ kind: 'stub', path });
    }
  }
  for (const entry of found) {
    mounts.push(...(await mountsOf(entry, found, roots)));
  }
  return mounts;
}

async function mountsOf(
  entry: ControlPath,
  found: readonly ControlPath[],
  roots: readonly string[],
): Promise<ProtectedMount[]> {
  if ((await lstatOf(entry.path))?.isSymbolicLink()) return linkTarget(entry.path, found, roots);
  if (entry.kind !== 'git-folder') return [{ kind: 'read-only', path: entry.path }];
  const mounts: ProtectedMount[] = [{ kind: 'pin', path: entry.path }];
  // `modules/` and `worktrees/` are pinned git-folder entries too; only real git folders get stubs.
  if ((await lstatOf(join(entry.path, 'HEAD'))) === undefined) return mounts;
  for (const name of stubbedInGit) {
    const path = join(entry.path, name);
    const present = found.some((other) => other.path === path) || (await lstatOf(path)) !== undefined;
    if (!present) mounts.push({ kind: 'stub', path });
  }
  return mounts;
}

/**
 * A protected path that is a link: a mount put on it would follow it (and could show the command a file
 * outside the read boundary), so its target is mounted read-only where it lies inside a root, and nothing
 * where it lies outside (read-only there already). Replacing the link itself is undone after the command.
 */
async function linkTarget(
  path: string,
  found: readonly ControlPath[],
  roots: readonly string[],
): Promise<ProtectedMount[]> {
  const real = await realpath(path).catch(() => undefined);
  // A `.git` link's folder is pinned as a git folder of its own.
  if (found.some((entry) => entry.path === real)) return [];
  const inRoot = real !== undefined && roots.some((root) => real === root || real.startsWith(root + sep));
  return inRoot ? [{ kind: 'read-only', path: real }] : [];
}
