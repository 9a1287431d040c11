import { sep } from 'node:path';

/**
 * A path inside every writable root (the workdir and each allowed root) that the file tools may read but
 * never change, and that sandboxed commands see read-only: changing it would make a later program (git,
 * Keel itself) run code the model chose, outside any sandbox, the next time the user runs it.
 */
export interface ProtectedPath {
  /**
   * `/`-separated, matched in any folder of the root (a nested repository or project counts too) and
   * case-insensitively; `**` stands for any number of folders.
   */
  readonly pattern: string;
  /** True: the folder and everything under it. */
  readonly tree: boolean;
  /** Why, as the refusal says it. */
  readonly why: string;
}

/**
 * THE table (docs: packages/runtime/README.md, "Protected paths"), for the file tools: the whole of every
 * `.git` (a folder or a `gitdir:` file, at any depth: nested repositories count), every `.gitmodules` and
 * `.runtime/`. The sandboxes keep git's own writes working (`sandbox/control-paths.ts`). Left out on
 * purpose: `.gitattributes` (it only names filter and diff drivers, whose commands live in a git config);
 * `.envrc` (direnv refuses a changed file until the user runs `direnv allow` again);
 * editor and build files (`.vscode/`, `Makefile`, `package.json` scripts): project code the user runs
 * knowingly, like the sources, and which the model legitimately edits.
 */
export const protectedPaths: readonly ProtectedPath[] = [
  {
    pattern: '.git',
    tree: true,
    why:
      "git runs the programs its control folder names (config's core.fsmonitor, aliases and drivers, hooks, " +
      'a commondir or gitdir pointing at another config) on the next git command, outside any sandbox; ' +
      'commit through git instead',
  },
  {
    pattern: '.gitmodules',
    tree: false,
    why: 'it chooses which repositories git fetches and checks out as submodules',
  },
  {
    pattern: '.runtime',
    tree: true,
    why: "it is Keel's project configuration: it can turn the sandbox off and allow any command",
  },
];

// Characters HFS+ ignores in names (git's is_hfs_dotgit), so `.g\u200cit` is `.git` on a Mac.
const ignorable = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/**
 * A name as a case-insensitive file system (macOS, Windows) compares it: `.GIT`, `.git.` and `.git `
 * (Windows drops trailing dots and spaces) are all `.git`. Used everywhere, also on Linux, where refusing
 * `.GIT/config` costs nothing.
 */
export function comparableName(name: string): string {
  return name
    .normalize('NFC')
    .replace(ignorable, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
}

/**
 * The protected-path entry a path relative to a writable root falls under, or undefined. `relative` is
 * already free of `.` and `..` (a resolved path made relative); either separator is accepted.
 */
export function protectedEntryOf(relative: string): ProtectedPath | undefined {
  const names = relative
    .split(sep === '\\' ? /[\\/]/ : /\//)
    .filter((name) => name !== '')
    .map(comparableName);
  for (const entry of protectedPaths) {
    const pattern = entry.pattern.split('/');
    for (let start = 0; start < names.length; start++) {
      if (matches(pattern, names.slice(start), entry.tree)) return entry;
    }
  }
  return undefined;
}

/** Whether `names` starts with `pattern` (and, unless `tree`, ends there); `**` is any run of names. */
function matches(pattern: readonly string[], names: readonly string[], tree: boolean): boolean {
  if (pattern.length === 0) return tree || names.length === 0;
  const [head, ...rest] = pattern;
  if (head === '**') {
    for (let skip = 0; skip <= names.length; skip++) {
      if (matches(rest, names.slice(skip), tree)) return true;
    }
    return false;
  }
  return names.length > 0 && names[0] === head && matches(rest, names.slice(1), tree);
}

/** The paths under one root that name a protected entry directly, to find their real locations. */
export const rootLevelProtectedPaths: readonly string[] = ['.git', '.gitmodules', '.runtime'];
