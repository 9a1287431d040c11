import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { joinPath, type PathsByFolder } from './paths-by-folder.ts';

// A repository may hold symbolic links to anything (`requirements.txt -> ~/.ssh/id_ed25519`, `docs -> /`),
// and git lists paths beneath a folder the working tree has turned into a link (`pkg/requirements.txt` once
// `pkg -> ~/.aws`). The scan names a link as a link and never reads or walks through one.

type Kind = 'file' | 'folder' | 'link' | 'missing';

export interface SeparatedFiles {
  /** The repository's own entries by folder (regular files; submodules, FIFOs and sockets are named only). */
  files: PathsByFolder;
  /** The symbolic links among the listed paths, or above them (a folder that is a link, once), sorted. */
  links: string[];
}

/**
 * Splits listed paths of `root` into its own files and its links, listing by listing (`add`). What each entry
 * is comes from one `readdir` of each folder holding listed paths (about 2,000 for 100,000 files) instead of
 * an `lstat` of every path; a name the listing does not show (another spelling of it, an unreadable folder)
 * is looked at with `lstat`, as before. Synchronous: it runs in the off-loop worker (`scanRepository`).
 */
export class LinkSeparator {
  readonly #root: string;
  readonly #entries = new Map<string, Map<string, Kind> | null>();
  /** A folder's verdict: 'own' when every folder down to it is a real one, else the link above it, or
   * undefined when one of them is missing or a file (its paths are then dropped). */
  readonly #verdicts = new Map<string, string | undefined>([['', 'own']]);
  readonly #files: PathsByFolder = new Map();
  readonly #links = new Set<string>();

  constructor(root: string) {
    this.#root = root;
  }

  /** Adds a listing; answers its own files (those it added). */
  add(listed: PathsByFolder): PathsByFolder {
    const added: PathsByFolder = new Map();
    for (const [folder, names] of listed) {
      const verdict = this.#folderVerdict(folder);
      if (verdict === undefined) continue;
      if (verdict !== 'own') {
        this.#links.add(verdict);
        continue;
      }
      const own: string[] = [];
      for (const name of names) {
        const kind = this.#kindOf(folder, name);
        // A folder listed as a path is a submodule: named like a file, as before.
        if (kind === 'link') this.#links.add(joinPath(folder, name));
        else if (kind !== 'missing') own.push(name);
      }
      if (own.length === 0) continue;
      added.set(folder, own);
      const before = this.#files.get(folder);
      if (!before) this.#files.set(folder, [...own]);
      else for (const name of own) before.push(name);
    }
    return added;
  }

  result(): SeparatedFiles {
    return { files: this.#files, links: [...this.#links].sort() };
  }

  #kindOf(folder: string, name: string): Kind {
    let kinds = this.#entries.get(folder);
    if (kinds === undefined) {
      kinds = readKinds(join(this.#root, folder));
      this.#entries.set(folder, kinds);
    }
    return kinds?.get(name) ?? lstatKind(join(this.#root, folder, name));
  }

  #folderVerdict(folder: string): string | undefined {
    if (this.#verdicts.has(folder)) return this.#verdicts.get(folder);
    const slash = folder.lastIndexOf('/');
    const parent = slash < 0 ? '' : folder.slice(0, slash);
    let verdict = this.#folderVerdict(parent);
    if (verdict === 'own') {
      const kind = this.#kindOf(parent, slash < 0 ? folder : folder.slice(slash + 1));
      verdict = kind === 'folder' ? 'own' : kind === 'link' ? folder : undefined;
    }
    this.#verdicts.set(folder, verdict);
    return verdict;
  }
}

/** The kind of each entry of a folder, or null when it cannot be listed. */
function readKinds(dir: string): Map<string, Kind> | null {
  let listing: Dirent[];
  try {
    listing = readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
  const kinds = new Map<string, Kind>();
  for (const entry of listing) {
    kinds.set(entry.name, entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'folder' : 'file');
  }
  return kinds;
}

function lstatKind(path: string): Kind {
  try {
    const info = lstatSync(path);
    return info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}
