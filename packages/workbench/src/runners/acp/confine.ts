import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';

/**
 * The directories an agent may touch through the client (workdir + allowedRoots), each with its real
 * path, so a symlink cannot lead a read or write outside them.
 */
export class Confinement {
  readonly #roots: string[];

  private constructor(roots: string[]) {
    this.#roots = roots;
  }

  static async of(dirs: readonly string[]): Promise<Confinement> {
    const roots = new Set<string>();
    for (const dir of dirs) {
      roots.add(resolve(dir));
      roots.add(await realOf(resolve(dir)));
    }
    return new Confinement([...roots]);
  }

  /**
   * The real path of `path` when it lies inside a root (after `..` and symlinks are resolved, also those of
   * a file not yet written), else undefined.
   */
  async inside(path: string): Promise<string | undefined> {
    if (!isAbsolute(path)) return undefined;
    const real = await realOf(resolve(path));
    return this.#roots.some((root) => within(root, real)) ? real : undefined;
  }

  /** `path` relative to the first root holding it (the workdir first), or as given when none does. */
  display(path: string): string {
    const absolute = resolve(path);
    for (const root of this.#roots) {
      if (within(root, absolute)) return relative(root, absolute) || '.';
    }
    return path;
  }
}

function within(root: string, path: string): boolean {
  const inside = relative(root, path);
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
}

/**
 * The real path of the nearest existing ancestor, with the part that does not exist yet appended. A dangling
 * symlink is followed to where a write through it would land.
 */
async function realOf(path: string, depth = 0): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const link = await lstat(path).catch(() => undefined);
    if (link?.isSymbolicLink() && depth < 40) {
      return realOf(resolve(dirname(path), await readlink(path)), depth + 1);
    }
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(await realOf(parent, depth + 1), basename(path));
  }
}
