import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** Permissions of a new file (default 0o644 less the umask). */
  mode?: number;
  /** Flush the data to disk before the rename, so a power cut leaves the old file or the new one. */
  sync?: boolean;
}

/**
 * Writes `path` so that a reader sees the old contents or the whole new ones, never a torn file: a temp
 * file in the same directory (created exclusively), then a rename over the old one. Parent directories are
 * made as needed; the temp file is removed if anything fails.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    const handle = await open(temp, 'wx', options.mode);
    try {
      await handle.writeFile(data);
      if (options.sync) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
