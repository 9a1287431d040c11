import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { userInfo } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';

/**
 * What a sandboxed command may read (issues #22 and #36, item 4), the command side of
 * `security.strict_read_boundary`: an allow-list. The sandbox shows the system folders a toolchain needs
 * (`systemPaths`, with `/etc`'s secrets masked), the folders of the programs on PATH, the workdir and
 * allowed roots, the toolchains under the home and `sandbox.readable_paths`; nothing else (`/srv`,
 * `/var/www`, `/opt`, `/run` and its sockets, another repository). The user's home, `WORKBENCH_HOME`,
 * `RUNTIME_HOME` and the runtime's directory are empty private folders, so a root inside them is still
 * reachable and `$HOME` is writable for caches. The most specific path wins.
 */
export interface ReadBoundary {
  /** Real paths of the hidden folders: empty private folders wherever they appear. */
  readonly hidden: readonly string[];
  /**
   * Shown read-only, existing paths with their folder's real path (a link itself is kept, so a `~/.nvm`
   * linked elsewhere still appears at `~/.nvm`): the system folders, the programs' folders on PATH, the
   * toolchains and `sandbox.readable_paths`.
   */
  readonly readable: readonly string[];
  /** Files and folders inside a readable system folder that stay unreadable (`/etc/shadow`, host keys…). */
  readonly masked: readonly string[];
}

/**
 * The system folders every command sees read-only: programs, libraries, configuration and the kernel's
 * views. Not `/var`, `/run`, `/srv`, `/opt`, `/home`, `/root`, `/mnt`, `/media`: a toolchain installed
 * there is shown through PATH (`pathFolders`) or `sandbox.readable_paths`.
 */
export const systemPaths: readonly string[] = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/sys',
  '/nix/store',
  '/snap',
];

/**
 * Secrets inside `/etc` that stay hidden although `/etc` is shown: password hashes, sudo rules, TLS and
 * host private keys, stored network passwords (Wi-Fi, VPN), systemd credentials, Kerberos keys, a cluster's
 * admin credentials, Debian's MySQL maintenance password.
 */
export const etcSecrets: readonly string[] = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/security/opasswd',
  '/etc/ssl/private',
  '/etc/pki/tls/private',
  '/etc/letsencrypt',
  '/etc/NetworkManager/system-connections',
  '/etc/wpa_supplicant',
  '/etc/ipsec.secrets',
  '/etc/ppp/chap-secrets',
  '/etc/ppp/pap-secrets',
  '/etc/credstore',
  '/etc/credstore.encrypted',
  '/etc/docker/key.json',
  '/etc/ssh/ssh_host_*_key',
  '/etc/krb5.keytab',
  '/etc/mysql/debian.cnf',
  '/etc/openvpn',
  '/etc/wireguard',
  '/etc/netplan',
  '/etc/kubernetes',
  '/etc/rancher',
];

/**
 * Where the machine's Unix sockets live (issue #36, item 5): the Docker daemon's, the system and session
 * buses, systemd's, the user's agents. Hidden in every mode (an empty private folder), since a path socket
 * is reached through the file system and `--unshare-net` does not cover it.
 */
export function socketFolders(env: NodeJS.ProcessEnv): string[] {
  const folders = ['/run', '/var/run', env.XDG_RUNTIME_DIR].filter(
    (path): path is string => typeof path === 'string' && isAbsolute(path),
  );
  // A link (Debian's /var/run -> /run) is covered by its target.
  return unique(folders.filter((path) => isRealFolder(path)).map(realOf));
}

/**
 * Folders under a hidden home that builds need and that hold no credentials: installed toolchains and
 * package caches only (never `.ssh`, `.aws`, `.config`, `.npmrc`, `.netrc`, `.git-credentials`, `.docker`,
 * `.kube`, `.cargo/credentials.toml`, `.m2/settings.xml`, `.gradle/gradle.properties`). A trailing `*`
 * matches the names that start with what precedes it. The runtime README's Sandbox section lists them.
 */
export const toolchainPaths: readonly string[] = [
  '.nvm',
  '.volta',
  '.fnm',
  '.bun',
  '.deno',
  '.cargo/bin',
  '.cargo/registry',
  '.cargo/git',
  '.rustup',
  '.pyenv',
  '.rbenv',
  '.asdf',
  '.sdkman/candidates',
  '.dotnet',
  '.local/bin',
  '.local/lib/python*',
  'go/bin',
  'go/pkg/mod',
  '.m2/repository',
  '.gradle/caches',
  '.gradle/wrapper',
];

export interface ReadBoundaryOptions {
  /** Where HOME, WORKBENCH_HOME, RUNTIME_HOME and PATH are read. */
  env: NodeJS.ProcessEnv;
  /** More folders to hide: the runtime's directory. */
  hiddenPaths?: readonly (string | undefined)[] | undefined;
  /** Config `sandbox.readable_paths`: absolute, or `~/…` under HOME. */
  readablePaths?: readonly string[] | undefined;
}

/** The boundary on this machine: missing folders are left out (nothing to hide or show). */
export function readBoundaryOf(options: ReadBoundaryOptions): ReadBoundary {
  const { env } = options;
  const homes = unique([env.HOME, accountHome()].map(realOf));
  const hidden = unique(
    [...homes, ...[env.WORKBENCH_HOME, env.RUNTIME_HOME, ...(options.hiddenPaths ?? [])].map(realOf)].filter(
      (path) => path !== '/',
    ),
  );
  const readable = shown([
    ...systemPaths,
    ...pathFolders(env.PATH, hidden),
    ...homes.flatMap((home) => toolchainPaths.flatMap((entry) => expand(home, entry))),
    ...userReadablePaths(options.readablePaths, env.HOME),
  ]);
  const masked = unique(etcSecrets.flatMap((entry) => expandAbsolute(entry)).filter((path) => exists(path)));
  return { hidden, readable, masked };
}

/**
 * Config `sandbox.readable_paths` (absolute, or `~/…` under HOME) as they are shown: also without the read
 * boundary, where one can show a socket inside a hidden socket folder on purpose.
 */
export function userReadablePaths(
  entries: readonly string[] | undefined,
  home: string | undefined,
): string[] {
  return shown((entries ?? []).map((entry) => underHome(entry, home)));
}

/** Existing paths with their folder's real path (a link itself is kept, so `~/.nvm` stays `~/.nvm`). */
function shown(paths: readonly string[]): string[] {
  return unique(
    paths.map((path) => {
      const folder = realOf(dirname(path));
      return folder && realOf(path) ? join(folder, basename(path)) : undefined;
    }),
  );
}

/**
 * The folders of the programs on PATH outside the system folders (`/opt/node/bin`, a repository's
 * `node_modules/.bin`): a `bin` folder brings its parent (the toolchain's libraries beside it), unless the
 * parent is `/` or holds a hidden folder (`~/bin` does not show the home).
 */
export function pathFolders(path: string | undefined, hidden: readonly string[]): string[] {
  return (path ?? '').split(':').flatMap((entry) => {
    if (!isAbsolute(entry)) return [];
    const real = realOf(entry);
    if (real === undefined || systemPaths.some((system) => within(real, system))) return [];
    // A PATH entry that holds a hidden folder (the home itself) shows nothing.
    if (hidden.some((folder) => within(folder, real))) return [];
    const parent = dirname(real);
    const binLike = ['bin', '.bin', 'sbin', 'shims'].includes(basename(real));
    const exposes = parent === '/' || hidden.some((folder) => within(folder, parent));
    return [binLike && !exposes ? parent : real];
  });
}

/** Whether `path` is `dir` or inside it. */
export function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** One mount of the boundary: `hide` an empty tmpfs, `read` a read-only bind, `write` a root's bind. */
export interface BoundaryLayer {
  readonly kind: 'hide' | 'read' | 'write';
  readonly path: string;
}

const kindOrder = { hide: 0, read: 1, write: 2 } as const;

/**
 * The hidden folders, readable paths and writable roots in mount order: parents first, so the most specific
 * one decides what a path is (a root inside a hidden home is writable, a hidden folder inside a root is
 * hidden); on the same path a root beats a readable path, which beats a hidden one.
 */
export function boundaryLayers(
  roots: readonly string[],
  boundary: Pick<ReadBoundary, 'hidden' | 'readable'> | undefined,
): BoundaryLayer[] {
  const layers: BoundaryLayer[] = [
    ...(boundary?.hidden ?? []).map((path) => ({ kind: 'hide' as const, path })),
    ...(boundary?.readable ?? []).map((path) => ({ kind: 'read' as const, path })),
    ...roots.map((path) => ({ kind: 'write' as const, path })),
  ];
  const depth = (path: string) => path.split(sep).filter(Boolean).length;
  return layers.sort((a, b) => depth(a.path) - depth(b.path) || kindOrder[a.kind] - kindOrder[b.kind]);
}

/** What decides `path`: the deepest layer holding it (the last in `boundaryLayers` order), if any. */
export function deciding(layers: readonly BoundaryLayer[], path: string): BoundaryLayer | undefined {
  return layers.findLast((layer) => within(path, layer.path));
}

function expand(home: string, entry: string): string[] {
  if (!entry.endsWith('*')) return [join(home, entry)];
  const dir = join(home, dirname(entry));
  const prefix = basename(entry).slice(0, -1);
  try {
    return readdirSync(dir)
      .filter((name) => name.startsWith(prefix))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/** `/etc/ssh/ssh_host_*_key`: the names in that folder matching the one `*`. */
function expandAbsolute(entry: string): string[] {
  const name = basename(entry);
  if (!name.includes('*')) return [entry];
  const [head = '', tail = ''] = name.split('*');
  try {
    return readdirSync(dirname(entry))
      .filter((candidate) => candidate.startsWith(head) && candidate.endsWith(tail))
      .map((candidate) => join(dirname(entry), candidate));
  } catch {
    return [];
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function isRealFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function underHome(entry: string, home: string | undefined): string {
  if ((entry === '~' || entry.startsWith('~/')) && home) return join(home, entry.slice(1));
  return isAbsolute(entry) ? entry : resolve(entry);
}

/** The account's home from the user database, when HOME points elsewhere. */
function accountHome(): string | undefined {
  try {
    return userInfo().homedir || undefined;
  } catch {
    return undefined;
  }
}

function realOf(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return realpathSync(resolve(path));
  } catch {
    return undefined;
  }
}

function unique<T>(values: readonly (T | undefined)[]): T[] {
  return [...new Set(values.filter((value): value is T => value !== undefined))];
}
