import { entryKind, readNoFollow } from './no-follow.ts';

// As the scan's manifest reader: a manifest larger than this is not one we read.
const maxFileBytes = 1024 * 1024;

/**
 * The text of the regular file `name` in `dir`, or undefined when missing, a link, not a file, too large or
 * unreadable: what the detection of checks, setup and preview commands read a repository's files with.
 */
export async function readSmallFile(dir: string, name: string): Promise<string | undefined> {
  const read = await readNoFollow(dir, name, { maxBytes: maxFileBytes }).catch(() => undefined);
  return read?.why === undefined ? read?.text : undefined;
}

/** Whether `name` in `dir` is a regular file (not a link, not under one). */
export async function isFile(dir: string, name: string): Promise<boolean> {
  return (await entryKind(dir, name).catch(() => 'missing')) === 'file';
}

/** Whether `name` in `dir` is a folder (not a link, not under one). */
export async function isDirectory(dir: string, name: string): Promise<boolean> {
  return (await entryKind(dir, name).catch(() => 'missing')) === 'folder';
}
