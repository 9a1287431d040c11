import { ToolError } from '../errors/index.ts';
import { findExecutable } from './find-executable.ts';
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
 * allowed roots writable, a private `/tmp`, its own process tree (so nothing outlives it), and no network
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
