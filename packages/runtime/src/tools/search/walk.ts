import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { CancelledError } from '../../errors/index.ts';
import type { PathGuard } from '../path-guard.ts';
import { type IgnoreRules, readGitignore } from './ignore-rules.ts';

/** A file found by `walkFiles`. */
export interface WalkEntry {
  /** Absolute path (under the walk's root; a symlinked file keeps its link path). */
  path: string;
  /** Path relative to the walk's root, with `/` separators. */
  rel: string;
}

export interface WalkOptions {
  /** Real absolute directory to walk, already checked with the guard. */
  root: string;
  guard: PathGuard;
  /** The rules above `root` (loadIgnoreRules); each directory's own `.gitignore` is added on the way down. */
  ignore: IgnoreRules;
  signal: AbortSignal;
  /** Deepest level yielded: 1 lists only the root's own files. Unlimited when absent. */
  maxDepth?: number;
}

/** A directory being listed: its sorted entries, the next one to look at, and the rules for them. */
interface Frame {
  dir: string;
  rel: string;
  depth: number;
  rules: IgnoreRules;
  entries: Dirent[];
  next: number;
}

/**
 * Yields the files under `root` in a stable order (names sorted in each directory, depth first),
 * skipping what the ignore rules rule out, with every `.gitignore` on the way down. Symbolic links: a
 * linked file is yielded only if its target lies inside the guard's roots (even when reads outside are
 * allowed), and linked directories are never entered, which also rules out cycles (ripgrep and git behave
 * the same way by default). Throws CancelledError as soon as `signal` is aborted.
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<WalkEntry> {
  for await (const batch of walkBatches(options)) yield* batch;
}

/** What `walkFiles` yields, all at once: faster when every file is wanted anyway. */
export async function listFiles(options: WalkOptions): Promise<WalkEntry[]> {
  const all: WalkEntry[] = [];
  for await (const batch of walkBatches(options)) for (const entry of batch) all.push(entry);
  return all;
}

/**
 * The walk, as runs of consecutive files (those of one directory up to its next subdirectory): yielding
 * each file through an async generator costs more than finding it.
 */
async function* walkBatches(options: WalkOptions): AsyncGenerator<WalkEntry[]> {
  // An explicit stack rather than recursive generators: each batch then passes through one generator only.
  const stack = [await open(options, options.root, '', 1, options.ignore)];
  let batch: WalkEntry[] = [];
  while (stack.length > 0) {
    throwIfAborted(options.signal);
    const frame = stack.at(-1)!;
    const entry = frame.entries[frame.next++];
    if (!entry) {
      stack.pop();
      continue;
    }
    // The directory is a normalised real path and a name holds no separator: no need for join().
    const path = frame.dir.endsWith(sep) ? `${frame.dir}${entry.name}` : `${frame.dir}${sep}${entry.name}`;
    const rel = frame.rel === '' ? entry.name : `${frame.rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (frame.rules.isIgnored(path, true)) continue;
      if (options.maxDepth === undefined || frame.depth < options.maxDepth) {
        if (batch.length > 0) yield batch;
        batch = [];
        stack.push(await open(options, path, rel, frame.depth + 1, frame.rules));
      }
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      if (frame.rules.isIgnored(path, false)) continue;
      if (entry.isFile() || (await isSafeLinkedFile(options.guard, path))) batch.push({ path, rel });
    }
  }
  if (batch.length > 0) yield batch;
}

async function open(
  options: WalkOptions,
  dir: string,
  rel: string,
  depth: number,
  rules: IgnoreRules,
): Promise<Frame> {
  throwIfAborted(options.signal);
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    entries = []; // unreadable or vanished directory: skip it, as `find` and `rg` do
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Only a directory listing a `.gitignore` file costs a read.
  const hasGitignore = entries.some((entry) => entry.name === '.gitignore' && entry.isFile());
  const own = hasGitignore ? rules.within(dir, await readGitignore(dir)) : rules;
  return { dir, rel, depth, rules: own, entries, next: 0 };
}

async function isSafeLinkedFile(guard: PathGuard, path: string): Promise<boolean> {
  try {
    const target = await realpath(path);
    return guard.isInside(target) && (await stat(target)).isFile();
  } catch {
    return false; // broken link
  }
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new CancelledError('The search was cancelled.');
}
