import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { DirectoryListing } from '@keel/protocol/workbench';
import { WorkbenchError } from '../errors.ts';

type DirectoryEntry = DirectoryListing['entries'][number];

/** The most entries one page of a listing shows: a folder of 20,000 sub-folders comes in pages. */
export const maxEntries = 2000;

// Names compare much faster through one collator than through `localeCompare` each time.
const byName = new Intl.Collator(undefined, { numeric: true }).compare;

// The checks of a listing (links, `.git`) run this many at a time, not all at once.
const checksAtOnce = 64;

/**
 * One directory of the machine the workbench runs on, for picking repositories in the browser:
 * directories first, then files, each by name; hidden entries only when asked. The default is the
 * user's home directory.
 */
export async function listDirectory(
  path = homedir(),
  options: { hidden?: boolean; offset?: number } = {},
): Promise<DirectoryListing> {
  const absolute = resolve(path);
  const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
    throw failure(error, absolute);
  });
  if (!info.isDirectory()) {
    throw new WorkbenchError('NOT_A_DIRECTORY', `${absolute} is a file, not a directory.`, {
      path: absolute,
    });
  }
  const dirents = await readdir(absolute, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    throw failure(error, absolute);
  });
  const shown = dirents.filter((dirent) => options.hidden || !dirent.name.startsWith('.'));
  // Only links need a look to be placed (a link to a directory is listed as one, so a linked checkout can
  // be picked); then `maxEntries` in order from `offset` (a page), and only they are checked for `.git`.
  const placed = shown.map((dirent) => ({
    name: dirent.name,
    isDir: dirent.isDirectory(),
    link: dirent.isSymbolicLink(),
  }));
  await mapAtMost(
    placed.filter((entry) => entry.link),
    checksAtOnce,
    async (entry) => {
      entry.isDir = await isDirectory(join(absolute, entry.name));
    },
  );
  placed.sort((a, b) => Number(b.isDir) - Number(a.isDir) || byName(a.name, b.name));
  const offset = options.offset ?? 0;
  const listed = placed.slice(offset, offset + maxEntries);
  const entries = await mapAtMost(listed, checksAtOnce, async ({ name, isDir }): Promise<DirectoryEntry> => {
    const entryPath = join(absolute, name);
    return {
      name,
      path: entryPath,
      is_dir: isDir,
      is_git_repo: isDir && (await exists(join(entryPath, '.git'))),
    };
  });
  const parent = dirname(absolute);
  return {
    path: absolute,
    parent: parent === absolute ? null : parent,
    entries,
    total: placed.length,
    offset,
    truncated: placed.length > offset + listed.length,
  };
}

/** `work` over `items`, at most `limit` at a time, the results in the items' order. */
async function mapAtMost<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function failure(error: NodeJS.ErrnoException, path: string): WorkbenchError {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
    return new WorkbenchError('DIRECTORY_NOT_FOUND', `No directory at ${path}.`, { path });
  }
  if (error.code === 'EACCES' || error.code === 'EPERM') {
    return new WorkbenchError('PERMISSION_DENIED', `The workbench may not read ${path}.`, { path });
  }
  return new WorkbenchError('DIRECTORY_ERROR', `Could not read ${path}: ${error.message}`, { path });
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
