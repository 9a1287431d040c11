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
  /** What commands may not read (config `security.strict_read_boundary`); none: everything is readable. */
  readBoundary?: ReadBoundary | undefined;
}

/**
 * Runs commands under bubblewrap (`bwrap`, Linux): the whole file system read-only, the workdir and the
 * allowed roots writable except their protected paths (`.git/config`, `.git/hooks`, `.runtime/`…, see
 * `protectedMounts`), a private `/tmp`, its own process tree (so nothing outlives it), and no network
 * unless `network` is true. With a read boundary, the hidden folders (the user's home, WORKBENCH_HOME,
 * RUNTIME_HOME) are empty private tmpfs, so `$HOME` is still a writable folder for caches, with the
 * readable paths bound read-only and the roots writable inside them again.
 */
export class BubblewrapSandbox implements Sandbox {
  readonly name = 'bubblewrap';
  readonly #network: boolean;
  readonly #searchPath: string;
  readonly #readBoundary: ReadBoundary | undefined;

  constructor(options: BubblewrapOptions) {
    this.#network = options.network;
    this.#searchPath = options.searchPath ?? process.env.PATH ?? '';
    this.#readBoundary = options.readBoundary;
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
    const layers = boundaryLayers(command.writableRoots, this.#readBoundary);
    return [
      bwrap,
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      // After the private /tmp, so a workdir under /tmp is still the real one; parents first (see
      // boundaryLayers): the writable roots, and the hidden folders and readable paths of the read boundary.
      ...layers.flatMap((layer) => layerMount(layer, layers)),
      // After the writable binds, so they win inside them; not inside a hidden folder (`.runtime` of a
      // workdir that is the home), which would show it again.
      ...protectedMounts(command.writableRoots)
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

function layerMount(layer: BoundaryLayer, layers: readonly BoundaryLayer[]): string[] {
  if (layer.kind === 'write') return ['--bind', layer.path, layer.path];
  const same = layers.filter((other) => other.path === layer.path);
  // A root or a readable path on the same folder wins: nothing to hide there.
  if (layer.kind === 'hide') return same.length > 1 ? [] : ['--tmpfs', layer.path];
  // Shown again only where a hidden folder covers it; elsewhere it is readable already.
  const covering = deciding(
    layers.filter((other) => other.path !== layer.path),
    layer.path,
  );
  return covering?.kind === 'hide' && same.every((other) => other.kind !== 'write')
    ? ['--ro-bind', layer.path, layer.path]
    : [];
}

function bubblewrapMount({ kind, path }: ProtectedMount): string[] {
  if (kind === 'pin') return ['--bind', path, path];
  if (kind === 'read-only') return ['--ro-bind', path, path];
  // An empty tmpfs, made read-only: nothing can be created at `path` for the command's lifetime.
  return ['--tmpfs', path, '--remount-ro', path];
}
