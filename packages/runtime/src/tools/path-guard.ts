import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InvalidParamsError, PermissionDeniedError } from '../errors/index.ts';
import { type ProtectedPath, protectedEntryOf, rootLevelProtectedPaths } from '../files/index.ts';

/** Options of `createPathGuard`. */
export interface PathGuardOptions {
  /** The project directory; relative paths resolve against it. */
  workdir: string;
  /** Extra directories tools may access on top of the workdir. */
  allowedRoots?: string[];
  /** When true (the default), reads obey the boundary too; writes always do. */
  strictReadBoundary?: boolean;
}

export type AccessMode = 'read' | 'write';

// A chain of dangling symlinks longer than this is treated as a loop (Linux uses 40 too).
const maxLinkHops = 40;

/**
 * Confines file access to the workdir plus allowed roots. Every path is checked by its real location,
 * so `..`, absolute paths and symbolic links (of the file or of any parent) cannot escape. Writes are also
 * refused for the protected paths inside the roots (`.git/config`, `.git/hooks/`, `.runtime/`…: the table
 * in `files/protected-paths.ts`), whether named directly, through `..`, a symbolic link or a case variant.
 * Build one with `createPathGuard`, which normalises the roots to real paths.
 *
 * @example
 * const guard = await createPathGuard({ workdir: '/repo' });
 * await guard.resolve('src/index.ts', 'read'); // '/repo/src/index.ts'
 * await guard.resolve('../etc/passwd', 'read'); // throws PermissionDeniedError
 */
export class PathGuard {
  /** Real absolute path of the working directory. */
  readonly workdir: string;
  readonly strictReadBoundary: boolean;
  readonly #roots: readonly string[];

  /** Expects real absolute paths; prefer `createPathGuard`. */
  constructor(workdir: string, allowedRoots: readonly string[], strictReadBoundary: boolean) {
    this.workdir = workdir;
    this.strictReadBoundary = strictReadBoundary;
    this.#roots = [workdir, ...allowedRoots.filter((root) => root !== workdir)];
  }

  /** The workdir first, then the allowed roots, all real absolute paths. */
  get roots(): string[] {
    return [...this.#roots];
  }

  /** True when an absolute, already-real path lies in the workdir or an allowed root. */
  isInside(absPath: string): boolean {
    return this.#roots.some((root) => isWithin(root, absPath));
  }

  /** The root (workdir first) an absolute, already-real path lies in, or undefined. */
  rootOf(absPath: string): string | undefined {
    return this.#roots
      .filter((root) => isWithin(root, absPath))
      .reduce<string | undefined>(
        (best, root) => (best && best.length >= root.length ? best : root),
        undefined,
      );
  }

  /**
   * Returns the real absolute path of `path`, or throws PermissionDeniedError if it is out of bounds or,
   * for a write, protected.
   */
  async resolve(path: string, mode: AccessMode): Promise<string> {
    if (path.length === 0) throw new InvalidParamsError('The path is empty: give a file or directory path.');
    if (path.includes('\0'))
      throw new InvalidParamsError(`The path contains a NUL byte: ${JSON.stringify(path)}`);
    // `~` is deliberately not expanded: it is an ordinary file name here.
    const real = await realLocation(resolve(this.workdir, path)).catch((error: unknown) => {
      // A path we cannot even resolve (a link loop, no permission) is refused rather than guessed at.
      const reason = error instanceof Error ? error.message : String(error);
      throw new PermissionDeniedError(`Access denied: cannot resolve '${path}' (${reason}).`, {
        path,
        workdir: this.workdir,
      });
    });
    if (this.isInside(real)) {
      if (mode === 'write') await this.#refuseProtected(path, real);
      return real;
    }
    if (mode === 'read' && !this.strictReadBoundary) return real;
    const where =
      this.#roots.length > 1 ? 'the working directory and the allowed roots' : 'the working directory';
    throw new PermissionDeniedError(
      `Access denied: '${path}' is outside ${where} (${this.workdir}). Use a path inside ${where}.`,
      { path, workdir: this.workdir },
    );
  }

  /** Throws when `real` (or `path` as written) is a protected path of a root, or where one really points. */
  async #refuseProtected(path: string, real: string): Promise<void> {
    const written = resolve(this.workdir, path);
    let entry: ProtectedPath | undefined;
    for (const root of this.#roots) {
      for (const candidate of [written, real]) {
        if (entry === undefined && isWithin(root, candidate))
          entry = protectedEntryOf(relative(root, candidate));
      }
    }
    entry ??= await this.#protectedTarget(real);
    if (entry === undefined) return;
    throw new PermissionDeniedError(
      `Access denied: '${path}' is a protected path (${entry.pattern}${entry.tree ? '/' : ''}), read-only to ` +
        `the file tools because ${entry.why}. Do not work around this: if the change is really needed, ask ` +
        'the user to make it themselves, outside Keel.',
      { path, workdir: this.workdir, protected: entry.pattern, reason: 'protected_path' },
    );
  }

  /** The entry whose real location (a protected path that is a symbolic link) holds `real`. */
  async #protectedTarget(real: string): Promise<ProtectedPath | undefined> {
    for (const root of this.#roots) {
      for (const name of rootLevelProtectedPaths) {
        const target = await realLocation(join(root, name)).catch(() => undefined);
        if (target === undefined || target === join(root, name)) continue;
        const entry = protectedEntryOf(name);
        if (entry && (real === target || (entry.tree && isWithin(target, real)))) return entry;
      }
    }
    return undefined;
  }
}

/** Builds a guard, turning the workdir and roots into real absolute paths (they must exist). */
export async function createPathGuard(options: PathGuardOptions): Promise<PathGuard> {
  const workdir = await realDirectory(resolve(options.workdir), 'workdir');
  const roots = await Promise.all(
    (options.allowedRoots ?? []).map((root) => realDirectory(resolve(workdir, root), 'allowed root')),
  );
  return new PathGuard(workdir, roots, options.strictReadBoundary ?? true);
}

async function realDirectory(path: string, what: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    throw new InvalidParamsError(`The ${what} does not exist: ${path}`, { path });
  }
}

function isWithin(root: string, absPath: string): boolean {
  if (absPath === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return absPath.startsWith(prefix);
}

/**
 * Where an absolute path really points. For a path that does not exist yet, the real path of its
 * nearest existing ancestor plus the rest; a dangling symlink on the way is followed to its target,
 * so writing through it cannot create a file outside.
 */
async function realLocation(absPath: string, hops = 0): Promise<string> {
  const rest: string[] = [];
  let current = absPath;
  for (;;) {
    try {
      return join(await realpath(current), ...rest);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    const link = await danglingLinkTarget(current);
    if (link !== undefined) {
      if (hops >= maxLinkHops) throw new Error('too many levels of symbolic links');
      const target = isAbsolute(link) ? link : resolve(dirname(current), link);
      return realLocation(join(target, ...rest), hops + 1);
    }
    const parent = dirname(current);
    if (parent === current) return join(current, ...rest);
    rest.unshift(basename(current));
    current = parent;
  }
}

async function danglingLinkTarget(path: string): Promise<string | undefined> {
  try {
    const stats = await lstat(path);
    return stats.isSymbolicLink() ? await readlink(path) : undefined;
  } catch {
    return undefined;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
