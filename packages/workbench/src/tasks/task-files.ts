import { lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { WorkbenchError } from '../errors.ts';
import {
  type NoFollowRead,
  readNoFollow,
  readNoFollowSync,
  type Unread,
  writeNoFollow,
} from '../files/index.ts';

// A task directory is the model's working folder: anything in it may have been replaced by a symbolic link
// (plan.md → ~/.bashrc, .skills → ~/.ssh). The workbench's own reads and writes there go through these two
// functions, which never follow a link: not at the file, not at a folder between the task directory and it
// (`files/no-follow.ts` does the work, as it does for the scan of a repository).

/** Largest model-written file the workbench reads back (a plan, a todo list). */
const maxReadBytes = 16 * 1024 * 1024;

/**
 * Writes `path` (inside `root`) without following links: a planted link at `path` is replaced, never
 * written through; a folder on the way that is a link is refused (PERMISSION_DENIED).
 */
export function writeTaskFile(root: string, path: string, data: string | Uint8Array): void {
  const unsafe = writeNoFollow(root, path, data);
  if (unsafe) throw refused(root, path, unsafe);
}

/**
 * The text of `path` (inside `root`), or null when it does not exist. A link (at the file or at a folder on
 * the way), or anything but a regular file, is refused (PERMISSION_DENIED): reading through it could put
 * any file of the user's into a prompt or an API response.
 */
export function readTaskFile(root: string, path: string): string | null {
  return textOf(root, path, readNoFollowSync(root, path, { maxBytes: maxReadBytes }));
}

/** `readTaskFile` off the event loop (a plan can be megabytes, on a disk a checkout keeps busy). */
export async function readTaskFileAsync(root: string, path: string): Promise<string | null> {
  return textOf(root, path, await readNoFollow(root, path, { maxBytes: maxReadBytes }));
}

function textOf(root: string, path: string, read: NoFollowRead): string | null {
  if (read.why === undefined) return read.text;
  if (read.why === 'missing') return null;
  throw refused(root, path, read);
}

/** True when `path` exists inside `root` as anything (a link counts: it is refused when read). */
export function taskFileExists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

function refused(root: string, path: string, unread: Unread): WorkbenchError {
  const why: Record<Unread['why'], string> = {
    missing: 'is missing',
    link: 'is a symbolic link',
    not_file: 'is not a regular file',
    not_folder: 'is not a folder',
    too_large: `is larger than ${maxReadBytes} bytes`,
    outside: 'is not inside the task directory',
  };
  const at = 'at' in unread ? unread.at : path;
  return new WorkbenchError(
    'PERMISSION_DENIED',
    `Refused to use ${at}: it ${why[unread.why]}. The task directory ${root} is the agent's workspace; the workbench never follows links in it.`,
    { reason: 'unsafe_task_path', path: at },
  );
}

/** plan.md of a task directory. */
export function planPath(taskDir: string): string {
  return join(taskDir, 'plan.md');
}

/** plan.md as the model left it, or null; a link is refused (PERMISSION_DENIED), never followed. */
export function readPlan(taskDir: string): Promise<string | null> {
  return readTaskFileAsync(taskDir, planPath(taskDir));
}

/** A file directly in a task directory, or '' when missing; a link is refused, never followed. */
export function readIfExists(path: string): string {
  return readTaskFile(dirname(path), path) ?? '';
}
