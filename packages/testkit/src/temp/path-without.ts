import { mkdir, readdir, symlink } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/**
 * A PATH whose programs are those of `path` (default this process's) except `missing`: links to each in
 * one folder under `dir`. Runs a program as on a machine where, say, bubblewrap is not installed, when
 * the real one is.
 * @example
 * await using bin = await createTempDir();
 * const env = { PATH: await pathWithout(['bwrap'], bin.path) };
 */
export async function pathWithout(
  missing: readonly string[],
  dir: string,
  path = process.env.PATH ?? '',
): Promise<string> {
  const bin = join(dir, 'bin');
  await mkdir(bin, { recursive: true });
  const linked = new Set(missing);
  for (const folder of path.split(delimiter).filter(Boolean)) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      if (linked.has(name)) continue;
      linked.add(name);
      await symlink(join(folder, name), join(bin, name));
    }
  }
  return bin;
}
