import { randomUUID } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { WorkbenchError } from '../errors.ts';

// A task directory is the model's working folder: anything in it may have been replaced by a symbolic link
// (plan.md → ~/.bashrc, .skills → ~/.ssh). The workbench's own reads and writes there go through these two
// functions, which never follow a link: not at the file, not at a folder between the task directory and it.

/** Largest model-written file the workbench reads back (a plan, a todo list). */
const maxReadBytes = 16 * 1024 * 1024;

/**
 * Writes `path` (inside `root`) without following links: every folder from `root` down is checked with
 * `lstat` to be a real folder (missing ones are made), the data goes to a new temp file (created exclusively,
 * so never through a link) and is renamed over `path`, which replaces a planted link instead of writing
 * through it. A folder that is a link is refused (PERMISSION_DENIED).
 */
export function writeTaskFile(root: string, path: string, data: string | Uint8Array): void {
  const parent = realFolders(root, path, true) as string;
  const temp = join(parent, `.${basename(path)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
  try {
    const fd = openSync(temp, 'wx', 0o644);
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * The text of `path` (inside `root`), or null when it does not exist. A link (at the file or at a folder on
 * the way), or anything but a regular file, is refused (PERMISSION_DENIED): reading through it could put
 * any file of the user's into a prompt or an API response.
 */
export function readTaskFile(root: string, path: string): string | null {
  if (realFolders(root, path, false) === null) return null;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw refused(root, path, 'is a symbolic link');
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw refused(root, path, 'is not a regular file');
    if (info.size > maxReadBytes) throw refused(root, path, `is larger than ${maxReadBytes} bytes`);
    const buffer = Buffer.alloc(info.size);
    let read = 0;
    while (read < buffer.length) {
      const count = readSync(fd, buffer, read, buffer.length - read, read);
      if (count === 0) break;
      read += count;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** True when `path` exists inside `root` as anything (a link counts: it is refused when read). */
export function taskFileExists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/**
 * Checks the folders strictly between `root` and `path` with lstat; returns the parent folder, or null when
 * one is missing and `create` is false. `path` must lie inside `root`.
 */
function realFolders(root: string, path: string, create: boolean): string | null {
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) {
    throw refused(root, path, 'is not inside the task directory');
  }
  let folder = root;
  for (const part of dirname(rel)
    .split(sep)
    .filter((each) => each !== '.' && each !== '')) {
    folder = join(folder, part);
    const info = lstatSync(folder, { throwIfNoEntry: false });
    if (!info) {
      if (!create) return null;
      mkdirSync(folder);
      continue;
    }
    if (info.isSymbolicLink()) throw refused(root, folder, 'is a symbolic link');
    if (!info.isDirectory()) throw refused(root, folder, 'is not a folder');
  }
  return dirname(path);
}

function refused(root: string, path: string, why: string): WorkbenchError {
  return new WorkbenchError(
    'PERMISSION_DENIED',
    `Refused to use ${path}: it ${why}. The task directory ${root} is the agent's workspace; the workbench never follows links in it.`,
    { reason: 'unsafe_task_path', path },
  );
}

/** plan.md of a task directory. */
export function planPath(taskDir: string): string {
  return join(taskDir, 'plan.md');
}

/** plan.md as the model left it, or null; a link is refused (PERMISSION_DENIED), never followed. */
export function readPlan(taskDir: string): string | null {
  return readTaskFile(taskDir, planPath(taskDir));
}

/** A file directly in a task directory, or '' when missing; a link is refused, never followed. */
export function readIfExists(path: string): string {
  return readTaskFile(dirname(path), path) ?? '';
}
