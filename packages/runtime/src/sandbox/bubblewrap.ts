import { statSync } from 'node:fs';
import { ToolError } from '../errors/index.ts';
import { findExecutable } from './find-executable.ts';
import { type ProtectedMount, protectedMounts } from './protected-mounts.ts';
import { type BoundaryLayer, boundaryLayers, deciding, type ReadBoundary } from './read-boundary.ts';
import type { Sandbox, SandboxCommand } from './sandbox.ts';

/** Options of `BubblewrapSandbox`. */
export interface BubblewrapOptions {
  /** False: the command gets its own empty network namespace (no network at all). */
  network: boolean;
  /** Where to look for `bwrap` (default the PATH of this process). */
  searchPath?: string;
  /**
   * What commands may read (config `security.strict_read_boundary`, an allow-list); none: the whole file
   * system, read-only.
   */
  readBoundary?: ReadBoundary | undefined;
  /** Folders of the machine's Unix sockets (`socketFolders`): empty in the sandbox, in every mode. */
  socketFolders?: readonly string[] | undefined;
  /** Without a read boundary: `sandbox.readable_paths`, shown again inside a socket folder. */
  readablePaths?: readonly string[] | undefined;
}

/**
 * Runs commands under bubblewrap (`bwrap`, Linux): the workdir and the allowed roots writable except their
 * protected paths (every `.git`'s control files, `.gitmodules`, `.runtime/`, see `protectedMounts`), a
 * private `/tmp`, its own process tree (so nothing outlives it), no network unless `network`, and no Unix
 * socket of the machine. With a read boundary, only its readable paths are there at all (read-only), and
 * the hidden folders (the user's home, WORKBENCH_HOME, RUNTIME_HOME) are empty private tmpfs, so `$HOME` is
 * still a writable folder for caches; without one, the whole file system is there read-only.
 */
export class BubblewrapSandbox implements Sandbox {
  readonly name = 'bubblewrap';
  readonly #network: boolean;
  readonly #searchPath: string;
  readonly #readBoundary: ReadBoundary | undefined;
  readonly #socketFolders: readonly string[];
  readonly #readablePaths: readonly string[];

  constructor(options: BubblewrapOptions) {
    this.#network = options.network;
    this.#searchPath = options.searchPath ?? process.env.PATH ?? '';
    this.#readBoundary = options.readBoundary;
    this.#socketFolders = options.socketFolders ?? [];
    this.#readablePaths = options.readablePaths ?? [];
  }

  async wrap(command: SandboxCommand): Promise<string[]> {
    const bwrap = await findExecutable('bwrap', this.#searchPath);
    if (bwrap === undefined) {
      throw new ToolError(
        'The command was not run: the sandbox is enabled (sandbox.enabled) but bubblewrap is not installed. ' +
          'Install it (Debian/Ubuntu: apt-get install bubblewrap) or set sandbox.enabled to false.',
        { sandbox: this.name },
      );
    }
    const boundary = this.#readBoundary;
    const layers = boundaryLayers(command.writableRoots, {
      hidden: [...(boundary?.hidden ?? []), ...this.#socketFolders],
      readable: boundary?.readable ?? this.#readablePaths,
    });
    const allowList = boundary !== undefined;
    return [
      bwrap,
      // Without a boundary everything is there read-only; with one, an empty root and only what it shows.
      ...(allowList ? [] : ['--ro-bind', '/', '/']),
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      // After the private /tmp, so a workdir under /tmp is still the real one; parents first (see
      // boundaryLayers): the writable roots, and the hidden folders and readable paths of the read boundary.
      ...layers.flatMap((layer) => layerMount(layer, layers, allowList)),
      ...(boundary?.masked ?? []).flatMap((path) => maskMount(path, layers)),
      // After the writable binds, so they win inside them; not inside a hidden folder (`.runtime` of a
      // workdir that is the home), which would show it again.
      ...(await protectedMounts(command.writableRoots))
        .filter((mount) => deciding(layers, mount.path)?.kind !== 'hide')
        .flatMap(bubblewrapMount),
      '--unshare-pid',
      '--unshare-ipc',
      ...(this.#network ? [] : ['--unshare-net']),
      '--die-with-parent',
      // A new session: the command cannot push keystrokes into the terminal it was started from.
      '--new-session',
      '--chdir',
      command.cwd,
      '--',
      ...command.argv,
    ];
  }
}

function layerMount(layer: BoundaryLayer, layers: readonly BoundaryLayer[], allowList: boolean): string[] {
  if (layer.kind === 'write') return ['--bind', layer.path, layer.path];
  const same = layers.filter((other) => other.path === layer.path);
  // A root or a readable path on the same folder wins: nothing to hide there.
  if (layer.kind === 'hide') return same.length > 1 ? [] : ['--tmpfs', layer.path];
  if (same.some((other) => other.kind === 'write')) return [];
  const covering = deciding(
    layers.filter((other) => other.path !== layer.path),
    layer.path,
  );
  // Shown where nothing shows it yet: a hidden folder covers it, or (allow-list) nothing does.
  const shown = covering !== undefined && covering.kind !== 'hide';
  const visible = shown || (!allowList && covering === undefined);
  return visible ? [] : ['--ro-bind', layer.path, layer.path];
}

/** A secret inside a shown system folder: an empty read-only file or folder in its place. */
function maskMount(path: string, layers: readonly BoundaryLayer[]): string[] {
  if (deciding(layers, path)?.kind !== 'read') return [];
  return isFolder(path) ? ['--tmpfs', path, '--remount-ro', path] : ['--ro-bind', '/dev/null', path];
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function bubblewrapMount({ kind, path }: ProtectedMount): string[] {
  if (kind === 'pin') return ['--bind', path, path];
  if (kind === 'read-only') return ['--ro-bind', path, path];
  // An empty tmpfs, made read-only: nothing can be created at `path` for the command's lifetime.
  return ['--tmpfs', path, '--remount-ro', path];
}
