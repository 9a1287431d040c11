import type { FileChange } from './diff-types.ts';

const statusNames: Record<string, FileChange['status']> = {
  A: 'added',
  C: 'added',
  D: 'deleted',
  M: 'modified',
  T: 'modified',
  R: 'renamed',
};

/**
 * Parses one `git diff --raw --numstat -z` run: every raw record (`:mode mode sha sha X\0path\0`, or
 * `…R086\0old\0new\0` for a rename or copy) comes first, then the numstat records. One entry per file, in
 * git's order. Each token is visited once (no regular expressions), so a diff of tens of thousands of files
 * parses in a few milliseconds.
 */
export function parseRawNumstat(output: string): FileChange[] {
  const tokens = output.split('\0');
  const records: { letter: string; first: string; second: string | undefined }[] = [];
  let i = 0;
  // A raw record starts with ':'; numstat records start with a digit or '-', never ':'.
  while (i < tokens.length && (tokens[i] ?? '').startsWith(':')) {
    const header = tokens[i] as string;
    const letter = header.charAt(header.lastIndexOf(' ') + 1);
    const twoPaths = letter === 'R' || letter === 'C';
    records.push({ letter, first: tokens[i + 1] ?? '', second: twoPaths ? tokens[i + 2] : undefined });
    i += twoPaths ? 3 : 2;
  }
  const counts = parseNumstat(tokens, i);
  return records.map(({ letter, first, second }) => fileChange(letter, first, second, counts));
}

function fileChange(
  letter: string,
  first: string,
  second: string | undefined,
  counts: Map<string, Counts>,
): FileChange {
  const path = second ?? first;
  const count = counts.get(path) ?? { additions: 0, deletions: 0, binary: false };
  const change: FileChange = { path, status: statusNames[letter] ?? 'modified', ...count };
  if (second !== undefined) change.old_path = first;
  return change;
}

type Counts = { additions: number; deletions: number; binary: boolean };

/**
 * numstat records from `tokens[start]` on: `add\tdel\tpath\0`, or `add\tdel\t\0old\0new\0` for a rename or
 * copy; `-` means binary.
 */
function parseNumstat(tokens: readonly string[], start: number): Map<string, Counts> {
  const counts = new Map<string, Counts>();
  for (let i = start; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    const tab = token.indexOf('\t');
    const secondTab = token.indexOf('\t', tab + 1);
    if (tab <= 0 || secondTab < 0) continue;
    const added = token.slice(0, tab);
    const deleted = token.slice(tab + 1, secondTab);
    // Everything after the second tab: a path may itself hold a tab.
    let path = token.slice(secondTab + 1);
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
