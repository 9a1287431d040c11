import { ToolError } from '../errors/index.ts';
import { findExecutable } from './find-executable.ts';
import { protectedMounts } from './protected-mounts.ts';
import type { Sandbox, SandboxCommand } from './sandbox.ts';

/** The image commands run in when `sandbox.image` names none: small, with a shell and coreutils. */
export const defaultContainerImage = 'debian:bookworm-slim';

/** Options of `ContainerSandbox`. */
export interface ContainerOptions {
  /** The engine's command line program: `docker` or `podman`. */
  engine: 'docker' | 'podman';
  image: string;
  network: boolean;
  searchPath?: string;
  /** The user the command runs as inside (default this process's uid:gid, so files it writes stay ours). */
  user?: string;
}

/**
 * Runs each command in a fresh container (Docker or Podman, through their command line): the workdir and
 * the allowed roots mounted read-write at the same paths, their existing protected paths (`.git/config`,
 * `.git/hooks`, `.runtime/`…) read-only and `.git` pinned, the image's root file system read-only, a
 * private /tmp, no network unless `network`, removed when the command ends. Missing protected paths are
 * not stubbed: the engine would create the mount point as root in the user's folder.
 */
export class ContainerSandbox implements Sandbox {
  readonly name: string;
  readonly #options: ContainerOptions;

  constructor(options: ContainerOptions) {
    this.#options = options;
    this.name = options.engine;
  }

  /** The engine's arguments for `command` (without the engine's own path). */
  async arguments(command: SandboxCommand): Promise<string[]> {
    const { image, network } = this.#options;
    const user = this.#options.user ?? defaultUser();
    return [
      'run',
      '--rm',
      '-i',
      '--read-only',
      '--tmpfs',
      '/tmp',
      '--network',
      network ? 'host' : 'none',
      ...(user ? ['--user', user] : []),
      ...command.writableRoots.flatMap((root) => ['--volume', `${root}:${root}:rw`]),
      ...(await protectedMounts(command.writableRoots))
        .filter((mount) => mount.kind !== 'stub')
        .flatMap(({ kind, path }) => ['--volume', `${path}:${path}:${kind === 'pin' ? 'rw' : 'ro'}`]),
      '--workdir',
      command.cwd,
      image,
      ...command.argv,
    ];
  }

  async wrap(command: SandboxCommand): Promise<string[]> {
    const { engine, searchPath } = this.#options;
    const program = await findExecutable(engine, searchPath ?? process.env.PATH ?? '');
    if (program === undefined) {
      throw new ToolError(
        `The command was not run: sandbox.backend is "${engine}" but ${engine} is not installed. ` +
          'Install it, choose another sandbox.backend, or set sandbox.enabled to false.',
        { sandbox: this.name },
      );
    }
    return [program, ...(await this.arguments(command))];
  }
}

function defaultUser(): string | undefined {
  return process.getuid && process.getgid ? `${process.getuid()}:${process.getgid()}` : undefined;
}
