// A repository's diff as one entry per changed file, without parsing the patch: the service's `files`
// list (always complete) joined with each file's slice of `patch` (cut at 1 MiB), split at its
// `diff --git ` lines. A file's slice is parsed only when it is shown (diff-view.tsx).
import type { FileChange, RepositoryDiff } from '../api/types.ts';

/** One changed file: its stats, its part of the patch, and whether the service's cut left it out. */
export interface FileEntry {
  key: string;
  change: FileChange;
  /** False for a file found in the patch but not in `files` (its counts are unknown). */
  counted: boolean;
  /** This file's `diff --git` section(s); null when the patch has none. */
  patch: string | null;
  /** `partial`: the patch ends inside this file; `missing`: the file is past the cut. */
  cut: 'none' | 'partial' | 'missing';
  /** A lock file or generated output: it starts collapsed. */
  generated: boolean;
}

/** Above these, every file starts collapsed (its header only) and its hunks render when opened. */
export const manyFiles = 50;
export const largePatchChars = 200_000;

const header = 'diff --git ';

/** The per-file entries of `diff`, in the order of its `files` (then any file only the patch names). */
export function fileEntries(diff: RepositoryDiff): FileEntry[] {
  const sections = splitPatch(diff.patch, diff.truncated === true);
  const byPath = new Map<string, string>();
  for (const section of sections) {
    byPath.set(section.path, (byPath.get(section.path) ?? '') + section.text);
  }
  const partial = diff.truncated ? sections.at(-1)?.path : undefined;
  const entries: FileEntry[] = [];
  const keys = new Set<string>();
  const add = (change: FileChange, counted: boolean, patch: string | null) => {
    let key = change.path;
    while (keys.has(key)) key = `${key}\u0000`;
    keys.add(key);
    const cut = change.path === partial ? 'partial' : patch === null && diff.truncated ? 'missing' : 'none';
    entries.push({ key, change, counted, patch, cut, generated: isGenerated(change.path) });
  };
  for (const change of diff.files) {
    const patch = byPath.get(change.path) ?? null;
    byPath.delete(change.path);
    add(change, true, patch);
  }
  // A section whose path the file list does not name (should not happen): shown rather than lost.
  for (const [path, patch] of byPath) {
    add({ path, status: sectionStatus(patch), additions: 0, deletions: 0, binary: false }, false, patch);
  }
  return entries;
}

/** Whether the diff is large enough that its files start collapsed. */
export function isLarge(diff: RepositoryDiff): boolean {
  return diff.files.length > manyFiles || diff.patch.length > largePatchChars;
}

interface Section {
  path: string;
  text: string;
}

/** The patch cut at each `diff --git ` line (a hunk line starts with ` `, `+`, `-`, `\` or `@@`, never so). */
export function splitPatch(patch: string, truncated: boolean): Section[] {
  let text = patch;
  if (truncated) {
    // The service appends a line saying it cut the patch; it belongs to no file.
    const note = text.lastIndexOf('\n[diff truncated:');
    if (note >= 0) text = text.slice(0, note + 1);
  }
  const sections: Section[] = [];
  let start = text.startsWith(header) ? 0 : text.indexOf(`\n${header}`) + 1;
  if (start === 0 && !text.startsWith(header)) return sections; // no git patch at all
  while (start < text.length) {
    const next = text.indexOf(`\n${header}`, start);
    const end = next < 0 ? text.length : next + 1;
    const section = text.slice(start, end);
    sections.push({ path: sectionPath(section), text: section });
    start = end;
  }
  return sections;
}

/** The path a section is about: `rename to`/`copy to` if any, else the (same) path of its header line. */
function sectionPath(section: string): string {
  // The extended header lines come before the first hunk; a few hundred characters hold them.
  const hunk = section.indexOf('\n@@');
  const head = section.slice(0, hunk < 0 ? 4096 : hunk).split('\n');
  for (const line of head.slice(1)) {
    for (const prefix of ['rename to ', 'copy to ']) {
      if (line.startsWith(prefix)) return unquote(line.slice(prefix.length));
    }
  }
  const paths = (head[0] ?? '').slice(header.length);
  if (paths.startsWith('"')) {
    // `"a/…" "b/…"`: git quotes a path with control characters, `"` or `\` (core.quotePath=false).
    const end = closingQuote(paths);
    return unquote(paths.slice(0, end + 1)).slice(2);
  }
  // `a/P b/P`: both halves name the same path unless it is a rename, handled above.
  const length = (paths.length - 5) / 2;
  return Number.isInteger(length) && length > 0 ? paths.slice(2, 2 + length) : paths.slice(2);
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

const escapes: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** A path as git prints it: C-quoted (`"a\tb"`, octal bytes) or as is. */
function unquote(text: string): string {
  if (!text.startsWith('"')) return text;
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 1; i < text.length - 1; i++) {
    const char = text[i] ?? '';
    if (char !== '\\') {
      bytes.push(...encoder.encode(char));
      continue;
    }
    const next = text[++i] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(text.slice(i, i + 3), 8));
      i += 2;
    } else {
      bytes.push(...encoder.encode(escapes[next] ?? next));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function sectionStatus(section: string): FileChange['status'] {
  if (/^new file mode /m.test(section)) return 'added';
  if (/^deleted file mode /m.test(section)) return 'deleted';
  if (/^rename to /m.test(section)) return 'renamed';
  return 'modified';
}

const lockFiles = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  'deno.lock',
  'Cargo.lock',
  'go.sum',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'pdm.lock',
  'Gemfile.lock',
  'composer.lock',
  'mix.lock',
  'pubspec.lock',
  'Podfile.lock',
  'Package.resolved',
  'flake.lock',
  'packages.lock.json',
  'gradle.lockfile',
]);
const generatedNames = /\.(min\.(js|mjs|css)|map|lock|pb\.go|snap)$|_pb2\.pyi?$|\.generated\.[a-z]+$/i;
const generatedFolders = new Set(['dist', 'build', 'node_modules', 'vendor', '__generated__', '.next']);

/** A lock file, a minified or source-map file, or a file under a build-output or vendored folder. */
export function isGenerated(path: string): boolean {
  const parts = path.split('/');
  const name = parts.at(-1) ?? '';
  return (
    lockFiles.has(name) ||
    generatedNames.test(name) ||
    parts.slice(0, -1).some((part) => generatedFolders.has(part))
  );
}
