import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

// Folders that hold tools' state or downloaded dependencies, never the project's own code.
const skipped = new Set([
  '.git',
  'node_modules',
  '.hg',
  '.svn',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
]);

/**
 * Files under `root` (relative, `/`-separated) for a folder that is not a git repository. A symbolic link is
 * listed (the scan names it as a link) but never followed, even to a folder.
 */
export async function walkFiles(root: string, maxFiles = 50_000): Promise<string[]> {
  const files: string[] = [];
  const pending = [''];
  while (pending.length > 0 && files.length < maxFiles) {
    const relative = pending.shift() ?? '';
    const entries = await readdir(join(root, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory() && !skipped.has(entry.name)) pending.push(path);
      else if ((entry.isFile() || entry.isSymbolicLink()) && files.length < maxFiles) files.push(path);
    }
  }
  return files;
}
