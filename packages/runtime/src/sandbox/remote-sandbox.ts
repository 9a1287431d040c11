import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolError } from '../errors/index.ts';
import { tokenVariable } from './remote-api.ts';
import type { Sandbox, SandboxCommand } from './sandbox.ts';

/** How long a provider keeps a sandbox nobody used, unless `sandbox.remote.idle_timeout_s` says otherwise. */
export const defaultRemoteIdleTimeoutS = 1800;

/** Options of `RemoteSandbox`. */
export interface RemoteSandboxOptions {
  /** The provider's base URL; the protocol's endpoints are under `{url}/v1/`. */
  url: string;
  /** The environment variable that holds the bearer token (none: requests carry no token). */
  tokenEnv?: string | undefined;
  /** Asks the provider for the network (`host`) or none. */
  network: boolean;
  /** Seconds the provider keeps an unused sandbox before destroying it (default 1800). */
  idleTimeoutS?: number | undefined;
  /** Names never synced either way, at any depth, besides `.git` (e.g. `node_modules`, installed remotely). */
  exclude?: readonly string[] | undefined;
  /** Where each workdir's sandbox id and file hashes are kept (default a private folder in the temp dir). */
  stateDir?: string | undefined;
  /** Where the token is read (default this process's environment). */
  env?: NodeJS.ProcessEnv | undefined;
}

/**
 * Runs each command in a remote sandbox over the provider-neutral HTTP protocol of docs/remote-sandbox.md:
 * the command runs through a small client program that syncs the workdir up (only what changed), runs the
 * command there with its output streamed back and its exit code as its own, and brings the changes down.
 * One sandbox per provider and workdir, reused by every command and process; the provider destroys it
 * after `idleTimeoutS` unused.
 */
export class RemoteSandbox implements Sandbox {
  readonly name = 'remote';
  readonly #options: RemoteSandboxOptions;

  constructor(options: RemoteSandboxOptions) {
    this.#options = options;
  }

  async wrap(command: SandboxCommand): Promise<string[]> {
    const { url, network, exclude = [] } = this.#options;
    // The sandbox holds one tree: the writable root the command starts in (the workdir, as a rule).
    const root = command.writableRoots.find((candidate) => inside(candidate, command.cwd));
    if (root === undefined) {
      throw new ToolError(
        'The command was not run: its directory is in none of the roots a remote sandbox holds.',
        {
          sandbox: this.name,
          cwd: command.cwd,
        },
      );
    }
    this.#token();
    return [
      process.execPath,
      clientPath(),
      '--url',
      url,
      '--root',
      root,
      '--cwd',
      relative(root, command.cwd).split(sep).join('/'),
      '--state',
      this.statePath(root),
      '--network',
      network ? 'host' : 'none',
      '--idle-timeout',
      String(this.#options.idleTimeoutS ?? defaultRemoteIdleTimeoutS),
      ...exclude.flatMap((name) => ['--exclude', name]),
      '--',
      ...command.argv,
    ];
  }

  /** The token for the client program, which never hands it on to the command. */
  environment(): Record<string, string> {
    const token = this.#token();
    return token === undefined ? {} : { [tokenVariable]: token };
  }

  /** The file where the sandbox of `root` is remembered. */
  statePath(root: string): string {
    const key = createHash('sha256').update(`${this.#options.url}\n${root}`).digest('hex').slice(0, 32);
    const uid = process.getuid?.() ?? 'user';
    return join(this.#options.stateDir ?? join(tmpdir(), `keel-remote-sandbox-${uid}`), `${key}.json`);
  }

  #token(): string | undefined {
    const { tokenEnv } = this.#options;
    if (tokenEnv === undefined) return undefined;
    const token = (this.#options.env ?? process.env)[tokenEnv];
    if (!token) {
      throw new ToolError(
        `The command was not run: sandbox.remote.token_env names ${tokenEnv}, which is not set. ` +
          'Set it to the remote sandbox token, or choose another sandbox.backend.',
        { sandbox: this.name },
      );
    }
    return token;
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

let client: string | undefined;

/**
 * The client program: beside this module (`dist/sandbox/remote-client.js` when built, the `.ts` source
 * when run from source on a Node that strips types), or, when this module was bundled into another
 * program (the `keel` command), in the installed runtime's `dist/`.
 */
function clientPath(): string {
  if (client) return client;
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'remote-client.js'), join(here, 'remote-client.ts')];
  try {
    const runtimeIndex = createRequire(import.meta.url).resolve('@keel/runtime');
    candidates.push(join(dirname(runtimeIndex), 'sandbox', 'remote-client.js'));
  } catch {
    // Not installed as a package: only the paths beside this module can hold it.
  }
  client = candidates.find((candidate) => existsSync(candidate));
  if (client === undefined) {
    throw new ToolError(
      `The command was not run: the remote sandbox client is missing (looked in ${candidates.join(', ')}). ` +
        'Reinstall @keel/runtime.',
      { sandbox: 'remote' },
    );
  }
  return client;
}
