import { readdir, rm } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { findControlPaths, lstatOf } from './control-paths.ts';

/** The control paths of the roots before a command, with what each was (a folder, a file, a link). */
export interface ControlSnapshot {
  readonly roots: readonly string[];
  readonly takenAt: number;
  readonly entries: ReadonlyMap<string, string>;
}

// File times come from a coarse kernel clock that may lag `Date.now()` by a few milliseconds.
const clockSlackMs = 50;

/**
 * Sandboxed commands of this process between their snapshot and their sweep, and the empty folders (the
 * sandboxes' stub mount points) whose removal waits for them. Commands run side by side in one workdir (a
 * run and its sub-agents): one's stub `.runtime/` is another's existing, read-only mounted `.runtime/`, so
 * removing it when the first ends would pull the mount source from under the second (`bwrap: Can't get type
 * of source`) or unmount its protection. An empty folder protects nothing and harms nothing: it goes when
 * the last command ends.
 */
let activeCommands = 0;
const waitingEmptyFolders = new Set<string>();

/** Takes the snapshot `sweepNewControlPaths` compares with; every snapshot must be swept once. */
export async function snapshotControlPaths(roots: readonly string[]): Promise<ControlSnapshot> {
  activeCommands += 1;
  const takenAt = Date.now() - clockSlackMs;
  const entries = new Map<string, string>();
  for (const { path } of await findControlPaths(roots)) entries.set(path, await typeOf(path));
  return { roots, takenAt, entries };
}

/**
 * After a sandboxed command: removes every control path (a `.git`, `.runtime/`, `.gitmodules` at any depth,
 * `commondir`, `config.worktree`, `hooks/`, `info/`… in a git folder) that the command created or replaced,
 * which the sandbox's mounts could not forbid because nothing was there to mount. The command and all it
 * started have ended (the sandbox kills its process tree), so nothing can race the removal. Answers the
 * removed paths, relative to their root; empty folders (the sandbox's own stub mount points) are removed
 * without being named.
 */
export async function sweepNewControlPaths(before: ControlSnapshot): Promise<string[]> {
  try {
    return await sweep(before);
  } finally {
    activeCommands -= 1;
    if (activeCommands === 0) await removeWaitingEmptyFolders();
  }
}

async function sweep(before: ControlSnapshot): Promise<string[]> {
  const removed: string[] = [];
  const gone: string[] = [];
  for (const { path } of await findControlPaths(before.roots)) {
    if (gone.some((parent) => path.startsWith(parent + sep))) continue;
    const type = await typeOf(path);
    if (before.entries.get(path) === type) continue;
    const info = await lstatOf(path);
    // Made during the command: an old entry the first walk missed (its folder budget) is never touched.
    const made = info && Math.max(info.birthtimeMs || 0, info.ctimeMs) >= before.takenAt;
    if (!made) continue;
    if (type === 'dir' && (await isEmptyFolder(path))) {
      if (activeCommands > 1) waitingEmptyFolders.add(path);
      else await rm(path, { recursive: true, force: true });
      continue;
    }
    await rm(path, { recursive: true, force: true });
    gone.push(path);
    removed.push(shown(path, before.roots));
  }
  return removed;
}

/** The waiting stub folders that are still empty (a command's sweep took any that were filled). */
async function removeWaitingEmptyFolders(): Promise<void> {
  const folders = [...waitingEmptyFolders];
  waitingEmptyFolders.clear();
  for (const path of folders) {
    if ((await typeOf(path)) === 'dir' && (await isEmptyFolder(path)))
      await rm(path, { recursive: true, force: true });
  }
}

/** The sentence a command's output ends with when the sweep removed something, or undefined. */
export function sweepNotice(removed: readonly string[]): string | undefined {
  if (removed.length === 0) return undefined;
  return (
    `Keel removed what the command created in git's or Keel's control files: ${removed.join(', ')}. ` +
    'A later git or Keel command run by the user would have read them as configuration or run them as ' +
    'programs, outside any sandbox. Do not work around this: if it is really needed, ask the user to do ' +
    'it themselves, outside Keel.'
  );
}

async function typeOf(path: string): Promise<string> {
  const info = await lstatOf(path);
  if (info === undefined) return 'missing';
  if (info.isSymbolicLink()) return 'link';
  return info.isDirectory() ? 'dir' : 'file';
}

async function isEmptyFolder(path: string): Promise<boolean> {
  return (await readdir(path).catch(() => ['?'])).length === 0;
}

function shown(path: string, roots: readonly string[]): string {
  const root = roots.find((candidate) => path.startsWith(candidate + sep));
  return root === undefined ? path : relative(root, path);
}
