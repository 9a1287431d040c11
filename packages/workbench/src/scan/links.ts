import { lstat } from 'node:fs/promises';
import { join } from 'node:path';

// A repository may hold symbolic links to anything (`requirements.txt -> ~/.ssh/id_ed25519`, `docs -> /`),
// and git lists paths beneath a folder the working tree has turned into a link (`pkg/requirements.txt` once
// `pkg -> ~/.aws`). The scan names a link as a link and never reads or walks through one.

type Kind = 'file' | 'folder' | 'link' | 'missing';

/** Paths looked at together: lstat calls in flight at once. */
const batch = 256;

export interface SeparatedFiles {
  /** The repository's own entries (regular files; submodules, FIFOs and sockets are named only). */
  files: string[];
  /** The symbolic links among the listed paths, or above them (a folder that is a link, once), sorted. */
  links: string[];
}

/** Splits the listed paths (relative, `/`-separated) of `root` into its own files and its links. */
export async function separateLinks(root: string, paths: readonly string[]): Promise<SeparatedFiles> {
  const kinds = new Map<string, Promise<Kind>>();
  const kindOf = (path: string): Promise<Kind> => {
    let kind = kinds.get(path);
    if (!kind) {
      kind = lstat(join(root, path)).then(
        (info) => (info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'folder' : 'file'),
        () => 'missing' as const,
      );
      kinds.set(path, kind);
    }
    return kind;
  };
  const files: string[] = [];
  const links = new Set<string>();
  for (let start = 0; start < paths.length; start += batch) {
    const chunk = paths.slice(start, start + batch);
    const verdicts = await Promise.all(chunk.map((path) => verdictOf(path, kindOf)));
    chunk.forEach((path, index) => {
      const verdict = verdicts[index];
      if (verdict === 'own') files.push(path);
      else if (verdict !== undefined) links.add(verdict);
    });
  }
  return { files, links: [...links].sort() };
}

/** 'own' for a path of the repository's own, the link it is or lies under, or undefined when it is gone. */
async function verdictOf(path: string, kindOf: (path: string) => Promise<Kind>): Promise<string | undefined> {
  const parts = path.split('/');
  for (let depth = 1; depth < parts.length; depth++) {
    const folder = parts.slice(0, depth).join('/');
    const kind = await kindOf(folder);
    if (kind === 'link') return folder;
    if (kind !== 'folder') return undefined;
  }
  const kind = await kindOf(path);
  if (kind === 'link') return path;
  // A folder listed as a path is a submodule: named like a file, as before.
  return kind === 'missing' ? undefined : 'own';
}
