import type { FileChange } from './diff-types.ts';

const statusNames: Record<string, FileChange['status']> = {
  A: 'added',
  C: 'added',
  D: 'deleted',
  M: 'modified',
  T: 'modified',
  R: 'renamed',
};

/** Joins `git diff --name-status -z` and `git diff --numstat -z` (same arguments) into one entry per file. */
export function parseDiffStats(nameStatus: string, numstat: string): FileChange[] {
  const counts = parseNumstat(numstat);
  const tokens = nameStatus.split('\0');
  const files: FileChange[] = [];
  for (let i = 0; i < tokens.length - 1; ) {
    const letter = (tokens[i] ?? '').charAt(0);
    const twoPaths = letter === 'R' || letter === 'C';
    const oldPath = tokens[i + 1] ?? '';
    const path = twoPaths ? (tokens[i + 2] ?? '') : oldPath;
    i += twoPaths ? 3 : 2;
    const count = counts.get(path) ?? { additions: 0, deletions: 0, binary: false };
    const change: FileChange = { path, status: statusNames[letter] ?? 'modified', ...count };
    if (twoPaths) change.old_path = oldPath;
    files.push(change);
  }
  return files;
}

type Counts = { additions: number; deletions: number; binary: boolean };

/** numstat records are `add\tdel\tpath\0`, or `add\tdel\t\0old\0new\0` for a rename or copy; `-` means binary. */
function parseNumstat(numstat: string): Map<string, Counts> {
  const tokens = numstat.split('\0');
  const counts = new Map<string, Counts>();
  for (let i = 0; i < tokens.length; i++) {
    const [added = '', deleted = '', inlinePath = ''] = (tokens[i] ?? '').split('\t');
    if (added === '') continue;
    let path = inlinePath;
    if (path === '') {
      path = tokens[i + 2] ?? '';
      i += 2;
    }
    const binary = added === '-' && deleted === '-';
    counts.set(path, {
      additions: binary ? 0 : Number(added),
      deletions: binary ? 0 : Number(deleted),
      binary,
    });
  }
  return counts;
}
