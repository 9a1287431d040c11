import { chmod, chown, stat, writeFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../files/index.ts';

/**
 * Writes a file tool's new content all or nothing: a temp file beside it, then a rename, so a full disk
 * (ENOSPC) or a crash halfway leaves the old content whole instead of a truncated file. An existing file
 * keeps its permission bits and, where this process may set it, its owner. `path` is the guard's resolved
 * path (symlinks followed), so the rename replaces the file itself, not a link to it.
 */
export async function replaceFile(path: string, data: string | Uint8Array): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  try {
    // 0o666 less the umask for a new file, as writeFile would; an existing one gets its own mode back below.
    await writeFileAtomic(path, data, { mode: 0o666 });
  } catch (error) {
    // A writable file in a directory this process may not add to: only an in-place write can change it.
    const code = (error as NodeJS.ErrnoException).code;
    if (existing?.isFile() && (code === 'EACCES' || code === 'EPERM')) return writeFile(path, data);
    throw error;
  }
  if (!existing) return;
  await chmod(path, existing.mode & 0o7777);
  if (process.getuid?.() === 0) await chown(path, existing.uid, existing.gid).catch(() => undefined);
}
