import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary directory, removed by `remove()` or at the end of an `await using` block. */
export type TempDir = {
  /** Absolute, symlink-free path of the directory. */
  readonly path: string;
  remove(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

/**
 * Create an empty temporary directory.
 * @example
 * await using dir = await createTempDir();
 * await writeFile(join(dir.path, 'a.txt'), 'hi');
 */
export async function createTempDir(options: { prefix?: string } = {}): Promise<TempDir> {
  // realpath so paths compare equal to what git and process.cwd() report (e.g. /tmp symlinks).
  const path = await realpath(await mkdtemp(join(tmpdir(), options.prefix ?? 'keel-test-')));
  const remove = (): Promise<void> => rm(path, { recursive: true, force: true, maxRetries: 3 });
  return { path, remove, [Symbol.asyncDispose]: remove };
}
