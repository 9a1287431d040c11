import { ToolError } from '../errors/index.ts';
import { findExecutable } from './find-executable.ts';
import { type ProtectedMount, protectedMounts } from './protected-mounts.ts';
import type { Sandbox, SandboxCommand } from './sandbox.ts';

/** Options of `BubblewrapSandbox`. */
export interface BubblewrapOptions {
  /** False: the command gets its own empty network namespace (no network at all). */
  network: boolean;
  /** Where to look for `bwrap` (default the PATH of this process). */
  searchPath?: string;
}

/**
 * Runs commands under bubblewrap (`bwrap`, Linux): the whole file system read-only, the workdir and the
 * allowed roots writable except their protected paths (`.git/config`, `.git/hooks`, `.runtime/`…, see
 * `protectedMounts`), a private `/tmp`, its own process tree (so nothing outlives it), and no network
 * unless `network` is true.
 */
export class BubblewrapSandbox implements Sandbox {
  readonly name = 'bubblewrap';
  readonly #network: boolean;
  readonly #searchPath: string;

  constructor(options: BubblewrapOptions) {
    this.#network = options.network;
    this.#searchPath = options.searchPath ?? process.env.PATH ?? '';
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
      // After the private /tmp, so a workdir under /tmp is still the real one.
      ...command.writableRoots.flatMap((root) => ['--bind', root, root]),
      // After the writable binds, so they win inside them.
      ...protectedMounts(command.writableRoots).flatMap(bubblewrapMount),
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

function bubblewrapMount({ kind, path }: ProtectedMount): string[] {
  if (kind === 'pin') return ['--bind', path, path];
  if (kind === 'read-only') return ['--ro-bind', path, path];
  // An empty tmpfs, made read-only: nothing can be created at `path` for the command's lifetime.
  return ['--tmpfs', path, '--remount-ro', path];
}
