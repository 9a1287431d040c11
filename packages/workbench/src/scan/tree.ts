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

/** An indented listing of `files`: folders first (with their file counts), then files, both by name. */
export function renderTree(files: readonly string[], options: TreeOptions = {}): string {
  const root = buildFolders([...files, ...(options.links ?? []).map((link) => `${link}${linkMark}`)]);
  const lines: string[] = [];
  const budget = { left: options.maxEntries ?? 300, skipped: 0 };
  renderFolder(root, 0, options.maxDepth ?? 4, lines, budget);
  if (budget.skipped > 0) lines.push(`… ${budget.skipped} more entries not shown`);
  return lines.join('\n');
}

function buildFolders(files: readonly string[]): Folder {
  const root: Folder = { folders: new Map(), files: [], count: 0 };
  for (const file of files) {
    const parts = file.split('/');
    let folder = root;
    folder.count++;
    for (const part of parts.slice(0, -1)) {
      let child = folder.folders.get(part);
      if (!child) {
        child = { folders: new Map(), files: [], count: 0 };
        folder.folders.set(part, child);
      }
      child.count++;
      folder = child;
    }
    folder.files.push(parts.at(-1) ?? file);
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
  const folders = [...folder.folders].sort(([a], [b]) => a.localeCompare(b));
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
