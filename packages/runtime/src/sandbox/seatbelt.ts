import { ToolError } from '../errors/index.ts';
import { findExecutable } from './find-executable.ts';
import { boundaryLayers, type ReadBoundary, within } from './read-boundary.ts';
import type { Sandbox, SandboxCommand } from './sandbox.ts';

/** Options of `SeatbeltSandbox`. */
export interface SeatbeltOptions {
  network: boolean;
  /** Where to look for `sandbox-exec` (default the PATH of this process, then /usr/bin). */
  searchPath?: string;
  /** What commands may not read (config `security.strict_read_boundary`); none: everything is readable. */
  readBoundary?: ReadBoundary | undefined;
}

/** A string literal of Seatbelt's profile language (a Scheme dialect). */
function quoted(path: string): string {
  return `"${path.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** A regular expression matching `path` literally, for Seatbelt's `(regex #"…")`. */
function literalRegex(path: string): string {
  return path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Write denials for the protected paths of each root at every depth (the table in `files/protected-paths.ts`,
 * issue #36): every `.git` itself (cannot be renamed, removed or created, so no nested repository appears),
 * the control entries of every git folder and of its submodules' and worktrees' (`gitControlNames`),
 * every `.gitmodules` and `.runtime/`. Seatbelt matches paths, so missing ones are covered too.
 */
function protectedDenials(roots: readonly string[]): string[] {
  if (roots.length === 0) return [];
  const filters = roots.flatMap((root) => {
    const git = `${root}/.git`;
    const anyDepth = `^${literalRegex(root)}/(.*/)?`;
    const inGit = `${anyDepth}\\.git/((modules|worktrees)/.+/)?`;
    // A #"…" literal cannot hold a quote: such a root keeps only the literal and subpath rules.
    const regexes = root.includes('"')
      ? []
      : [
          `(regex #"${anyDepth}\\.git$")`,
          `(regex #"${inGit}(config|config\\.worktree|commondir|gitdir)$")`,
          `(regex #"${inGit}(hooks|info|branches|remotes)(/|$)")`,
          `(regex #"${anyDepth}\\.gitmodules$")`,
          `(regex #"${anyDepth}\\.runtime(/|$)")`,
        ];
    return [
      `(literal ${quoted(git)})`,
      `(literal ${quoted(`${git}/config`)})`,
      `(literal ${quoted(`${git}/config.worktree`)})`,
      `(subpath ${quoted(`${git}/hooks`)})`,
      ...regexes,
      `(literal ${quoted(`${root}/.gitmodules`)})`,
      `(subpath ${quoted(`${root}/.runtime`)})`,
    ];
  });
  return [`(deny file-write* ${filters.join(' ')})`];
}

/**
 * The read boundary's rules, after `(allow file-read*)`: in `boundaryLayers` order (parents first), a hidden
 * folder denies reads below it and a root or readable path inside allows them again, so the most specific
 * path wins as the last matching rule. The folders above an allowed path keep their metadata readable, so
 * the path can still be resolved (`realpath`, `getcwd`); their listing and contents stay denied.
 */
function readRules(roots: readonly string[], boundary: ReadBoundary | undefined): string[] {
  if (boundary === undefined || boundary.hidden.length === 0) return [];
  const layers = boundaryLayers(roots, boundary);
  const rules = layers.map(({ kind, path }) =>
    kind === 'hide'
      ? `(deny file-read* (subpath ${quoted(path)}))`
      : `(allow file-read* (subpath ${quoted(path)}))`,
  );
  const above = new Set<string>();
  for (const { kind, path } of layers) {
    if (kind === 'hide') continue;
    for (let dir = path; dir.lastIndexOf('/') > 0; ) {
      dir = dir.slice(0, dir.lastIndexOf('/'));
      if (boundary.hidden.some((hidden) => within(dir, hidden))) above.add(dir);
    }
  }
  if (above.size > 0) {
    rules.push(`(allow file-read-metadata ${[...above].map((dir) => `(literal ${quoted(dir)})`).join(' ')})`);
  }
  return rules;
}

/**
 * The Seatbelt profile (macOS `sandbox-exec -p`) for one command, from the same boundary as bubblewrap:
 * everything readable but the read boundary's hidden folders, only `writableRoots` and the temporary
 * directories writable except the protected paths inside the roots, no network unless `network`. Denied by default, then allowed piece by piece, as
 * Apple's own profiles are written; the protected paths' denials come last, so they win (the last matching
 * rule decides).
 */
export function seatbeltProfile(options: {
  writableRoots: readonly string[];
  network: boolean;
  readBoundary?: ReadBoundary | undefined;
}): string {
  // /private/var/folders holds each user's TMPDIR; /private/tmp is /tmp.
  const writable = [...options.writableRoots, '/private/tmp', '/private/var/folders'];
  return [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    '(allow file-read*)',
    ...readRules(options.writableRoots, options.readBoundary),
    `(allow file-write* ${writable.map((root) => `(subpath ${quoted(root)})`).join(' ')})`,
    '(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/"))',
    ...(options.network ? ['(allow network*)', '(allow system-socket)'] : []),
    ...protectedDenials(options.writableRoots),
  ].join('\n');
}

/** Runs commands under macOS Seatbelt (`sandbox-exec`) with the profile above. */
export class SeatbeltSandbox implements Sandbox {
  readonly name = 'seatbelt';
  readonly #network: boolean;
  readonly #searchPath: string;
  readonly #readBoundary: ReadBoundary | undefined;

  constructor(options: SeatbeltOptions) {
    this.#network = options.network;
    this.#searchPath = options.searchPath ?? `${process.env.PATH ?? ''}:/usr/bin`;
    this.#readBoundary = options.readBoundary;
  }

  async wrap(command: SandboxCommand): Promise<string[]> {
    const sandboxExec = await findExecutable('sandbox-exec', this.#searchPath);
    if (sandboxExec === undefined) {
      throw new ToolError(
        'The command was not run: the Seatbelt sandbox needs macOS sandbox-exec, which is not on this ' +
          'machine. Choose another sandbox.backend or set sandbox.enabled to false.',
        { sandbox: this.name },
      );
    }
    const profile = seatbeltProfile({
      writableRoots: command.writableRoots,
      network: this.#network,
      readBoundary: this.#readBoundary,
    });
    return [sandboxExec, '-p', profile, '--', ...command.argv];
  }
}
