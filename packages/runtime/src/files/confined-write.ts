import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { constants, type FileHandle, lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { PermissionDeniedError } from '../errors/index.ts';

/** Options of `writeFileConfined`. */
export interface ConfinedWriteOptions {
  /** Permissions of a new file, less the umask (default 0o666, as `writeFile`). */
  mode?: number;
  /** An existing file's exact permission bits and owner, given back to the new content. */
  keep?: { mode: number; uid: number; gid: number } | undefined;
  /** Create missing parent folders (each checked the same way). */
  createParents?: boolean;
  /** When the folder refuses a new file (EACCES/EPERM), write an existing file in place instead. */
  inPlaceFallback?: boolean;
}

// Linux: /proc/self/fd/N/name is "name inside the folder open as N", an openat() Node does not offer, so
// a folder swapped for a symbolic link after it was opened changes nothing. Elsewhere, lstat checks.
const procFd = process.platform === 'linux' && existsSync('/proc/self/fd');
const openFolderFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** A folder opened one name at a time from a root, without following any symbolic link. */
class Folder {
  readonly path: string;
  readonly #handle: FileHandle;
  readonly #chain: readonly { path: string; dev: number; ino: number }[];

  constructor(
    path: string,
    handle: FileHandle,
    chain: readonly { path: string; dev: number; ino: number }[],
  ) {
    this.path = path;
    this.#handle = handle;
    this.#chain = chain;
  }

  /** The path of `name` inside this very folder (on Linux, even if the folder has moved since). */
  at(name: string): string {
    return procFd ? `/proc/self/fd/${this.#handle.fd}/${name}` : join(this.path, name);
  }

  /** Throws when a folder on the way is no longer the one opened (swapped, or replaced by a link). */
  async verify(target: string): Promise<void> {
    for (const step of this.#chain) {
      const now = await lstat(step.path).catch(() => undefined);
      if (!now?.isDirectory() || now.dev !== step.dev || now.ino !== step.ino)
        throw changed(target, step.path);
    }
  }

  close(): Promise<void> {
    return this.#handle.close();
  }
}

/**
 * Opens `dir` (an absolute real path inside the real folder `root`) one name at a time from `root`, each
 * with O_NOFOLLOW: a symbolic link on the way is refused, wherever it points, since the path guard already
 * resolved links and one appearing now means the tree changed under us. Missing folders are made when
 * `create`; a file in the way fails with ENOTDIR.
 */
export async function openFolderInside(
  root: string,
  dir: string,
  create: boolean,
  target = dir,
): Promise<Folder> {
  const rel = relative(root, dir);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw changed(target, dir);
  let handle = await open(root, openFolderFlags);
  const chain = [await identity(root, handle)];
  let path = root;
  let current = new Folder(path, handle, chain);
  try {
    for (const name of rel === '' ? [] : rel.split(sep)) {
      const next = join(path, name);
      const child = await openChild(current, name, create, next, target);
      await handle.close();
      handle = child;
      path = next;
      chain.push(await identity(next, handle));
      current = new Folder(path, handle, [...chain]);
    }
    return current;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function openChild(folder: Folder, name: string, create: boolean, path: string, target: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await open(folder.at(name), openFolderFlags);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && create && attempt < 2) {
        await mkdir(folder.at(name)).catch((mkdirError: NodeJS.ErrnoException) => {
          if (mkdirError.code !== 'EEXIST') throw mkdirError;
        });
        continue;
      }
      if (code === 'ELOOP' || code === 'ENOTDIR') {
        const info = await lstat(folder.at(name)).catch(() => undefined);
        if (info?.isSymbolicLink()) throw changed(target, path);
      }
      throw error;
    }
  }
}

async function identity(path: string, handle: FileHandle) {
  const info = await handle.stat();
  return { path, dev: info.dev, ino: info.ino };
}

/**
 * Writes `path` (absolute, real, inside the real folder `root`) all or nothing, and only there: its folder
 * is opened without following links (`openFolderInside`), the temp file is created exclusively inside that
 * open folder, the chain of folders is checked again, then the temp file is renamed over `path` in the same
 * open folder. A folder swapped for a symbolic link at any moment cannot send the write elsewhere.
 */
export async function writeFileConfined(
  root: string,
  path: string,
  data: string | Uint8Array,
  options: ConfinedWriteOptions = {},
): Promise<void> {
  const folder = await openFolderInside(root, dirname(path), options.createParents ?? false, path);
  const name = basename(path);
  const temp = `.${name}.${process.pid}.${randomUUID()}.tmp`;
  try {
    let handle: FileHandle;
    try {
      handle = await open(folder.at(temp), 'wx', options.mode ?? 0o666);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (!options.inPlaceFallback || (code !== 'EACCES' && code !== 'EPERM')) throw error;
      return await writeInPlace(folder, name, path, data);
    }
    try {
      await handle.writeFile(data);
      const keep = options.keep;
      if (keep) {
        await handle.chmod(keep.mode & 0o7777);
        if (process.getuid?.() === 0) await handle.chown(keep.uid, keep.gid).catch(() => undefined);
      }
    } finally {
      await handle.close();
    }
    try {
      await folder.verify(path);
      await rename(folder.at(temp), folder.at(name));
    } catch (error) {
      await unlink(folder.at(temp)).catch(() => undefined);
      throw error;
    }
  } finally {
    await folder.close();
  }
}

/** A writable file in a folder this process may not add to: only an in-place write can change it. */
async function writeInPlace(folder: Folder, name: string, path: string, data: string | Uint8Array) {
  const handle = await open(folder.at(name), constants.O_WRONLY | constants.O_NOFOLLOW);
  try {
    if (!(await handle.stat()).isFile()) throw changed(path, path);
    await folder.verify(path);
    await handle.truncate(0);
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}

/** Deletes the file `path` (absolute, real, inside `root`) without following a link to find it. */
export async function unlinkConfined(root: string, path: string): Promise<void> {
  const folder = await openFolderInside(root, dirname(path), false, path);
  try {
    await folder.verify(path);
    await unlink(folder.at(basename(path)));
  } finally {
    await folder.close();
  }
}

function changed(target: string, where: string): PermissionDeniedError {
  return new PermissionDeniedError(
    `Access denied: ${where} is a symbolic link or changed while ${target} was being written (a folder ` +
      'swapped for a link can send a write outside the allowed folders). Nothing was written; check the ' +
      'folder and try again.',
    { path: target, reason: 'path_changed' },
  );
}
