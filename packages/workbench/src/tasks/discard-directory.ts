import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';

/** Where directories wait to be removed: under the data directory, so a rename into it is instant. */
export function trashDir(home: string): string {
  return join(home, 'trash');
}

/**
 * Takes `dir` away at once (a rename into the trash) and removes it in a child process: a workspace of
 * 100,000 files took the service's event loop for seconds and its memory up by 400 MB when removed with
 * `fs.rm` in process. Answers when `dir` is gone from its place; `removed` settles when the files are.
 */
export async function discardDirectory(home: string, dir: string): Promise<{ removed: Promise<void> }> {
  const trash = trashDir(home);
  await mkdir(trash, { recursive: true });
  const parked = join(trash, `${basename(dir)}-${randomUUID().slice(0, 8)}`);
  try {
    await rename(dir, parked);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { removed: Promise.resolve() };
    // Not renamable (busy on some systems): removed where it is, the slow way.
    return { removed: removeTree(dir) };
  }
  return { removed: removeTree(parked) };
}

/** Empties the trash (what a stop left there), one entry at a time. */
export async function emptyTrash(home: string): Promise<void> {
  const trash = trashDir(home);
  const names = await readdir(trash).catch(() => [] as string[]);
  for (const name of names) await removeTree(join(trash, name));
}

/** `rm -rf` in a child process; `fs.rm` where there is no `rm`. */
function removeTree(path: string): Promise<void> {
  return new Promise((resolve) => {
    execFile('rm', ['-rf', '--', path], (error) => {
      if (!error) return resolve();
      rm(path, { recursive: true, force: true, maxRetries: 3 }).then(resolve, () => resolve());
    });
  });
}
