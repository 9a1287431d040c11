import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** One entry of a listing; `is_git_repo` only when the caller asked for it. */
export interface ListedEntry {
  name: string;
  path: string;
  is_dir: boolean;
  is_git_repo?: boolean;
}

export interface Listing {
  path: string;
  /** null at the root. */
  parent: string | null;
  entries: ListedEntry[];
  /** Entries in the whole directory (what `hidden` shows), of which `entries` is the page from `offset`. */
  total: number;
  offset: number;
  truncated: boolean;
}

export interface ListOptions {
  /** Also entries whose name starts with a dot. */
  hidden?: boolean;
  /** Where the page starts in the sorted entries. */
  offset?: number;
  /** The most entries one page shows (default `maxEntries`). */
  limit?: number;
  /** Look in each listed directory for `.git` (the workbench's picker marks repositories). */
  gitRepos?: boolean;
}

/** Why a directory could not be listed; each service words it in its own codes. */
export type ListingFailure = 'missing' | 'not_a_directory' | 'forbidden' | 'failed';

export class DirectoryListingError extends Error {
  readonly reason: ListingFailure;
  readonly path: string;
  /** The file system's code (ENOENT, EACCES, EIO, …), when it gave one. */
  readonly fsCode: string | undefined;

  constructor(reason: ListingFailure, path: string, fsCode: string | undefined, message: string) {
    super(message);
    this.name = 'DirectoryListingError';
    this.reason = reason;
    this.path = path;
    this.fsCode = fsCode;
  }
}

/** The most entries one page shows by default: a folder of 20,000 sub-folders comes in pages. */
export const maxEntries = 2000;

// Names compare much faster through one collator than through `localeCompare` each time.
const byName = new Intl.Collator(undefined, { numeric: true }).compare;

// The checks of a listing (links, `.git`) run this many at a time, not all at once.
const checksAtOnce = 64;

/**
 * One directory of the machine the service runs on (an absolute path), for picking folders in a browser:
 * directories first, then files, each by name; hidden entries only when asked; a link to a directory is
 * listed as one, so a linked checkout can be picked. Both services' `GET /api/directories` list through
 * this; they differ only in how they word a failure and which fields their answer shows.
 */
export async function listDirectory(absolute: string, options: ListOptions = {}): Promise<Listing> {
  const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
    throw failure(error, absolute);
  });
  if (!info.isDirectory()) {
    throw new DirectoryListingError(
      'not_a_directory',
      absolute,
      'ENOTDIR',
      `${absolute} is a file, not a directory.`,
    );
  }
  const dirents = await readdir(absolute, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    throw failure(error, absolute);
  });
  const shown = dirents.filter((dirent) => options.hidden || !dirent.name.startsWith('.'));
  // Only links need a look to be placed; then a page in order from `offset`, and only it is checked for `.git`.
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
  const listed = placed.slice(offset, offset + (options.limit ?? maxEntries));
  const entries = await mapAtMost(listed, checksAtOnce, async ({ name, isDir }): Promise<ListedEntry> => {
    const entryPath = join(absolute, name);
    if (!options.gitRepos) return { name, path: entryPath, is_dir: isDir };
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

/** What means "no such directory" to the user. */
const missing = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP']);

function failure(error: NodeJS.ErrnoException, path: string): DirectoryListingError {
  // A path through a file (ENOTDIR here) names nothing: missing, like a name too long or a link loop.
  if (error.code && missing.has(error.code)) {
    return new DirectoryListingError('missing', path, error.code, `No directory at ${path}.`);
  }
  if (error.code === 'EACCES' || error.code === 'EPERM') {
    return new DirectoryListingError('forbidden', path, error.code, `${path} may not be read.`);
  }
  return new DirectoryListingError('failed', path, error.code, `Could not read ${path}: ${error.message}`);
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

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
