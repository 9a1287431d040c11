import { createHash, randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { comparableName } from '../files/index.ts';
import type { RemoteEntry } from './remote-api.ts';

/** A local entry: what the protocol lists, plus what tells whether it changed since (size and mtime). */
export interface LocalEntry extends RemoteEntry {
  mtimeMs?: number;
}

/** Hashes of local files by path, valid while size and mtime stay the same: spares re-reading big trees. */
export type HashCache = Record<string, [size: number, mtimeMs: number, sha256: string]>;

/** A temporary file of a download in progress (`.keel-sync-<12 hex>.tmp`): a walk removes strays. */
export function tempName(): string {
  return `.keel-sync-${randomBytes(6).toString('hex')}.tmp`;
}
const isTemp = (name: string) => /^\.keel-sync-[0-9a-f]{12}\.tmp$/.test(name);

/** Whether a path a server sent is relative, `/`-separated and stays inside the workdir (no `..`, `.`, empty segment). */
export function isSafePath(path: unknown): path is string {
  if (typeof path !== 'string' || path === '' || path.length > 4096 || path.includes('\0')) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

// Never synced either way, in any case spelling: the protected paths' folders and files (files/protected-
// paths.ts), so a remote command cannot send back a `.runtime/config.json`, a `.gitmodules` or git hooks.
const protectedNames = new Set(['.git', '.runtime', '.gitmodules']);

/** Whether `path` (relative, `/`-separated) is kept out of the sync: any segment is an excluded name. */
export function isExcluded(path: string, exclude: ReadonlySet<string>): boolean {
  return path
    .split('/')
    .some(
      (segment) => exclude.has(segment) || isTemp(segment) || protectedNames.has(comparableName(segment)),
    );
}

/**
 * Lists `root` without following symlinks: directories, files (hashed, through `cache` when size and
 * mtime match) and symlinks, sorted by path. Excluded names are not entered. Temporary files left by a
 * download that was killed are removed.
 */
export async function listLocal(
  root: string,
  exclude: ReadonlySet<string>,
  cache: HashCache,
): Promise<Map<string, LocalEntry>> {
  const entries = new Map<string, LocalEntry>();
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.sort()) {
      const path = prefix === '' ? name : `${prefix}/${name}`;
      const absolute = join(dir, name);
      if (isTemp(name)) {
        await rm(absolute, { force: true });
        continue;
      }
      if (isExcluded(name, exclude)) continue;
      const info = await lstat(absolute).catch(() => undefined);
      if (!info) continue;
      const entry = await describe(absolute, path, info, cache);
      if (!entry) continue;
      entries.set(path, entry);
      if (entry.type === 'directory') await walk(absolute, path);
    }
  };
  await walk(root, '');
  return entries;
}

/** The entry for one path, or undefined for what is not synced (sockets, devices) or vanished meanwhile. */
export async function describe(
  absolute: string,
  path: string,
  info: Stats,
  cache: HashCache,
): Promise<LocalEntry | undefined> {
  if (info.isDirectory()) return { path, type: 'directory' };
  if (info.isSymbolicLink()) {
    const target = await readlink(absolute).catch(() => undefined);
    return target === undefined ? undefined : { path, type: 'symlink', target };
  }
  if (!info.isFile()) return undefined;
  const cached = cache[path];
  let sha256: string;
  if (cached && cached[0] === info.size && cached[1] === info.mtimeMs) {
    sha256 = cached[2];
  } else {
    const contents = await readFile(absolute).catch(() => undefined);
    if (!contents) return undefined;
    sha256 = sha256Of(contents);
    cache[path] = [info.size, info.mtimeMs, sha256];
  }
  return {
    path,
    type: 'file',
    size: info.size,
    sha256,
    executable: (info.mode & 0o111) !== 0,
    mtimeMs: info.mtimeMs,
  };
}

export function sha256Of(contents: Uint8Array): string {
  return createHash('sha256').update(contents).digest('hex');
}

/** Whether two entries hold the same thing (type, contents, executable bit, link target). */
export function sameEntry(a: RemoteEntry | undefined, b: RemoteEntry | undefined): boolean {
  if (!a || !b || a.type !== b.type) return a === b;
  if (a.type === 'symlink') return a.target === b.target;
  if (a.type === 'file') return a.sha256 === b.sha256 && Boolean(a.executable) === Boolean(b.executable);
  return true;
}

/** What turns the listing `from` into `to`: paths to write (parents first) and paths to remove (top-most only). */
export function difference<T extends RemoteEntry>(
  from: ReadonlyMap<string, RemoteEntry>,
  to: ReadonlyMap<string, T>,
): { write: T[]; remove: string[] } {
  const write = [...to.values()].filter((entry) => !sameEntry(from.get(entry.path), entry));
  write.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const gone = new Set([...from.keys()].filter((path) => !to.has(path)));
  // Removing a directory removes what is under it: only paths with no removed ancestor are named.
  const remove = [...gone].sort().filter((path) => {
    for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) {
      if (gone.has(path.slice(0, cut))) return false;
    }
    return true;
  });
  return { write, remove };
}
