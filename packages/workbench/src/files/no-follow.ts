import { randomUUID } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

// The one way the workbench reads (and writes) a file in a folder it does not control: a repository the user
// pointed it at (`requirements.txt -> ~/.ssh/id_ed25519`, `docs -> /home/user`) or a task directory the
// model works in. No link is followed, neither at the file nor at a folder between the root and it: every
// folder is checked with lstat, the file is opened with O_NOFOLLOW, and where /proc exists the opened file's
// real path is compared with the one expected (a folder swapped for a link after the check is caught too).

/** What lies at a path, never looking through a link. */
export type EntryKind = 'file' | 'folder' | 'link' | 'other' | 'missing';

/** Why a file was not read: `at` is the path (inside the root) that is the link, or not a file. */
export type Unread =
  | { why: 'missing' }
  | { why: 'link'; at: string }
  | { why: 'not_file'; at: string }
  | { why: 'not_folder'; at: string }
  | { why: 'too_large'; at: string; size: number }
  | { why: 'outside'; at: string };

/** The text read, or why not (`why` is set only when nothing was read). */
export type NoFollowRead = { text: string; why?: undefined } | Unread;

const openFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** `path` (absolute, or relative to `root`) resolved inside `root`; null when it is the root or outside it. */
function inside(root: string, path: string): string | null {
  const absolute = resolve(root, path);
  const rel = relative(root, absolute);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return absolute;
}

/**
 * The folders strictly between `root` and `absolute`, checked with lstat: undefined when each is a real
 * folder, else why not. With `create`, a missing folder is made (for writes).
 */
function checkFolders(root: string, absolute: string, create = false): Unread | undefined {
  let folder = root;
  for (const part of relative(root, dirname(absolute))
    .split(sep)
    .filter((each) => each !== '' && each !== '.')) {
    folder = join(folder, part);
    const info = lstatSync(folder, { throwIfNoEntry: false });
    if (!info) {
      if (!create) return { why: 'missing' };
      mkdirSync(folder);
      continue;
    }
    if (info.isSymbolicLink()) return { why: 'link', at: folder };
    if (!info.isDirectory()) return { why: 'not_folder', at: folder };
  }
  return undefined;
}

/** What is at `path` inside `root`: a link at any level (the file or a folder on the way) is 'link'. */
export async function entryKind(root: string, path: string): Promise<EntryKind> {
  const absolute = inside(root, path);
  if (absolute === null) return 'missing';
  const folders = checkFolders(root, absolute);
  if (folders) return folders.why === 'link' ? 'link' : 'missing';
  const info = await lstat(absolute).catch(() => undefined);
  if (!info) return 'missing';
  if (info.isSymbolicLink()) return 'link';
  return info.isFile() ? 'file' : info.isDirectory() ? 'folder' : 'other';
}

/** Where the kernel says an open file is (Linux's /proc), or undefined where that cannot be asked. */
function openedPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** Checks an opened descriptor: a regular file, at the path expected, no larger than `maxBytes`. */
function checkOpened(
  fd: number,
  root: string,
  absolute: string,
  size: number,
  isFile: boolean,
  maxBytes: number,
): Unread | undefined {
  if (!isFile) return { why: 'not_file', at: absolute };
  const seen = openedPath(fd);
  if (seen !== undefined) {
    const expected = join(realpathSync(root), relative(root, absolute));
    // A folder on the way became a link between the lstat and the open.
    if (seen !== expected) return { why: 'link', at: absolute };
  }
  if (size > maxBytes) return { why: 'too_large', at: absolute, size };
  return undefined;
}

function openError(error: unknown, absolute: string): Unread {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { why: 'missing' };
  // O_NOFOLLOW on a link: ELOOP on Linux, EMLINK on some BSDs.
  if (code === 'ELOOP' || code === 'EMLINK') return { why: 'link', at: absolute };
  throw error;
}

/**
 * The text of the regular file at `path` (absolute or relative to `root`, inside it), read without following
 * a link anywhere below `root`; or why it was not read. Errors other than these (EACCES, EIO) are thrown.
 */
export async function readNoFollow(
  root: string,
  path: string,
  options: { maxBytes: number },
): Promise<NoFollowRead> {
  const absolute = inside(root, path);
  if (absolute === null) return { why: 'outside', at: path };
  const folders = checkFolders(root, absolute);
  if (folders) return folders;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(absolute, openFlags);
  } catch (error) {
    return openError(error, absolute);
  }
  try {
    const info = await handle.stat();
    const refused = checkOpened(handle.fd, root, absolute, info.size, info.isFile(), options.maxBytes);
    if (refused) return refused;
    const buffer = Buffer.alloc(info.size);
    let read = 0;
    while (read < buffer.length) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { text: buffer.subarray(0, read).toString('utf8') };
  } finally {
    await handle.close();
  }
}

/** `readNoFollow` for synchronous callers (the task files). */
export function readNoFollowSync(root: string, path: string, options: { maxBytes: number }): NoFollowRead {
  const absolute = inside(root, path);
  if (absolute === null) return { why: 'outside', at: path };
  const folders = checkFolders(root, absolute);
  if (folders) return folders;
  let fd: number;
  try {
    fd = openSync(absolute, openFlags);
  } catch (error) {
    return openError(error, absolute);
  }
  try {
    const info = fstatSync(fd);
    const refused = checkOpened(fd, root, absolute, info.size, info.isFile(), options.maxBytes);
    if (refused) return refused;
    const buffer = Buffer.alloc(info.size);
    let read = 0;
    while (read < buffer.length) {
      const count = readSync(fd, buffer, read, buffer.length - read, read);
      if (count === 0) break;
      read += count;
    }
    return { text: buffer.subarray(0, read).toString('utf8') };
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `path` (inside `root`) without following links: the folders from `root` down must be real folders
 * (missing ones are made), the data goes to a new temp file (created exclusively, so never through a link)
 * renamed over `path`, which replaces a planted link instead of writing through it. Answers why not when a
 * folder on the way is a link or no folder, or `path` is not inside `root`.
 */
export function writeNoFollow(root: string, path: string, data: string | Uint8Array): Unread | undefined {
  const absolute = inside(root, path);
  if (absolute === null) return { why: 'outside', at: path };
  const folders = checkFolders(root, absolute, true);
  if (folders) return folders;
  const temp = join(
    dirname(absolute),
    `.${basename(absolute)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`,
  );
  try {
    const fd = openSync(temp, 'wx', 0o644);
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, absolute);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return undefined;
}
