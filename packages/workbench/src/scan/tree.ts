import type { PathsByFolder } from './paths-by-folder.ts';

interface Folder {
  folders: Map<string, Folder>;
  files: string[];
  count: number;
}

export interface TreeOptions {
  /** Lines of the listing at most (default 300). */
  maxEntries?: number;
  /** Folder levels expanded (default 4); deeper folders show only their file count. */
  maxDepth?: number;
  /** Symbolic links to list beside the files, each marked as a link that was not read. */
  links?: readonly string[];
}

/** How the listing shows a symbolic link: by its name, never by what it points to. */
export const linkMark = ' -> (link, not read)';

/** Children listed per folder before a "… N more" line, so one huge folder cannot fill the listing. */
const maxChildren = 25;

/** Folder names in the order `localeCompare` gives, at a fraction of its cost per comparison. */
const byName = new Intl.Collator().compare;

/** An indented listing of the files: folders first (with their file counts), then files, both by name. */
export function renderTree(files: PathsByFolder, options: TreeOptions = {}): string {
  const root = buildFolders(files, options.links ?? []);
  const lines: string[] = [];
  const budget = { left: options.maxEntries ?? 300, skipped: 0 };
  renderFolder(root, 0, options.maxDepth ?? 4, lines, budget);
  if (budget.skipped > 0) lines.push(`… ${budget.skipped} more entries not shown`);
  return lines.join('\n');
}

/** The folder tree, each folder once (not each path): its files, then its count and its ancestors'. */
function buildFolders(files: PathsByFolder, links: readonly string[]): Folder {
  const root: Folder = { folders: new Map(), files: [], count: 0 };
  const byPath = new Map<string, Folder>([['', root]]);
  const folderAt = (path: string): Folder => {
    let folder = byPath.get(path);
    if (!folder) {
      const slash = path.lastIndexOf('/');
      const parent = folderAt(slash < 0 ? '' : path.slice(0, slash));
      folder = { folders: new Map(), files: [], count: 0 };
      parent.folders.set(slash < 0 ? path : path.slice(slash + 1), folder);
      byPath.set(path, folder);
    }
    return folder;
  };
  const added = new Map<string, number>();
  for (const [path, names] of files) {
    const folder = folderAt(path);
    for (const name of names) folder.files.push(name);
    added.set(path, (added.get(path) ?? 0) + names.length);
  }
  for (const link of links) {
    const slash = link.lastIndexOf('/');
    const path = slash < 0 ? '' : link.slice(0, slash);
    folderAt(path).files.push(`${slash < 0 ? link : link.slice(slash + 1)}${linkMark}`);
    added.set(path, (added.get(path) ?? 0) + 1);
  }
  // Each folder counts the files beneath it, at any depth.
  for (const [path, count] of added) {
    let at = path;
    for (;;) {
      (byPath.get(at) as Folder).count += count;
      if (at === '') break;
      const slash = at.lastIndexOf('/');
      at = slash < 0 ? '' : at.slice(0, slash);
    }
  }
  return root;
}

function renderFolder(
  folder: Folder,
  depth: number,
  maxDepth: number,
  lines: string[],
  budget: { left: number; skipped: number },
): void {
  const indent = '  '.repeat(depth);
  const folders = [...folder.folders].sort(([a], [b]) => byName(a, b));
  const children = [
    ...folders.map(([name, child]) => ({ name, child })),
    ...folder.files.sort().map((name) => ({ name, child: null })),
  ];
  children.forEach(({ name, child }, index) => {
    if (budget.left <= 0) {
      budget.skipped += 1;
      return;
    }
    if (index === maxChildren && children.length > maxChildren + 1) {
      lines.push(`${indent}… ${children.length - maxChildren} more`);
      budget.left--;
      return;
    }
    if (index > maxChildren && children.length > maxChildren + 1) return;
    budget.left--;
    if (!child) {
      lines.push(`${indent}${name}`);
      return;
    }
    lines.push(`${indent}${name}/ (${child.count} ${child.count === 1 ? 'file' : 'files'})`);
    if (depth + 1 < maxDepth) renderFolder(child, depth + 1, maxDepth, lines, budget);
  });
}
