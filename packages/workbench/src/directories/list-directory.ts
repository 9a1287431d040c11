import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { WorkbenchError } from '../errors.ts';

export interface DirectoryEntry {
  name: string;
  path: string;
  is_dir: boolean;
  /** A directory with a `.git` inside: what a project's repository can be. */
  is_git_repo: boolean;
}

export interface DirectoryListing {
  path: string;
  /** The directory above, or null at the root. */
  parent: string | null;
  entries: DirectoryEntry[];
}

/**
 * One directory of the machine the workbench runs on, for picking repositories in the browser:
 * directories first, then files, each by name; hidden entries only when asked. The default is the
 * user's home directory.
 */
export async function listDirectory(
  path = homedir(),
  options: { hidden?: boolean } = {},
): Promise<DirectoryListing> {
  const absolute = resolve(path);
  const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
    throw failure(error, absolute);
  });
  if (!info.isDirectory()) {
    throw new WorkbenchError('NOT_A_DIRECTORY', 400, `${absolute} is a file, not a directory.`, {
      path: absolute,
    });
  }
  const dirents = await readdir(absolute, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    throw failure(error, absolute);
  });
  const shown = dirents.filter((dirent) => options.hidden || !dirent.name.startsWith('.'));
  const entries = await Promise.all(
    shown.map(async (dirent): Promise<DirectoryEntry> => {
      const entryPath = join(absolute, dirent.name);
      // A link to a directory is listed as one, so a linked checkout can be picked.
      const isDir = dirent.isDirectory() || (dirent.isSymbolicLink() && (await isDirectory(entryPath)));
      return {
        name: dirent.name,
        path: entryPath,
        is_dir: isDir,
        is_git_repo: isDir && (await exists(join(entryPath, '.git'))),
      };
    }),
  );
  entries.sort((a, b) => Number(b.is_dir) - Number(a.is_dir) || a.name.localeCompare(b.name));
  const parent = dirname(absolute);
  return { path: absolute, parent: parent === absolute ? null : parent, entries };
}

function failure(error: NodeJS.ErrnoException, path: string): WorkbenchError {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
    return new WorkbenchError('DIRECTORY_NOT_FOUND', 404, `No directory at ${path}.`, { path });
  }
  if (error.code === 'EACCES' || error.code === 'EPERM') {
    return new WorkbenchError('PERMISSION_DENIED', 403, `The workbench may not read ${path}.`, { path });
  }
  return new WorkbenchError('DIRECTORY_ERROR', 500, `Could not read ${path}: ${error.message}`, { path });
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
