import { stat } from 'node:fs/promises';
import { PermissionDeniedError } from '../../errors/index.ts';
import { unlinkConfined, writeFileConfined } from '../../files/index.ts';
import type { PathGuard } from '../path-guard.ts';

/**
 * Writes a file tool's new content all or nothing: a temp file beside it, then a rename, so a full disk
 * (ENOSPC) or a crash halfway leaves the old content whole instead of a truncated file. An existing file
 * keeps its permission bits and, where this process may set it, its owner. `path` is the guard's resolved
 * path (symlinks followed), so the rename replaces the file itself, not a link to it; and the write is made
 * inside the folders the guard checked, opened without following links (`writeFileConfined`), so a folder
 * swapped for a link after the check cannot send it elsewhere. `createParents` makes missing folders.
 */
export async function replaceFile(
  guard: PathGuard,
  path: string,
  data: string | Uint8Array,
  createParents = false,
): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  const keep = existing?.isFile() ? { mode: existing.mode, uid: existing.uid, gid: existing.gid } : undefined;
  await writeFileConfined(rootOf(guard, path), path, data, {
    mode: 0o666,
    keep,
    createParents,
    inPlaceFallback: keep !== undefined,
  });
}

/** Deletes a file the guard resolved, without following a link planted on the way since. */
export async function removeFile(guard: PathGuard, path: string): Promise<void> {
  await unlinkConfined(rootOf(guard, path), path);
}

function rootOf(guard: PathGuard, path: string): string {
  const root = guard.rootOf(path);
  if (root === undefined) {
    throw new PermissionDeniedError(`Access denied: '${path}' is outside the working directory.`, { path });
  }
  return root;
}
