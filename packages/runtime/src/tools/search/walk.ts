import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CancelledError } from '../../errors/index.ts';
import type { PathGuard } from '../path-guard.ts';
import type { IgnoreRules } from './ignore-rules.ts';

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
  ignore: IgnoreRules;
  signal: AbortSignal;
  /** Deepest level yielded: 1 lists only the root's own files. Unlimited when absent. */
  maxDepth?: number;
}

/**
 * Yields the files under `root` in a stable order (names sorted in each directory, depth first),
 * skipping what `ignore` rules out. Symbolic links: a linked file is yielded only if its target lies
 * inside the guard's roots (even when reads outside are allowed), and linked directories are never
 * entered, which also rules out cycles (ripgrep and git behave the same way by default).
 * Throws CancelledError as soon as `signal` is aborted.
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<WalkEntry> {
  yield* walkDirectory(options, options.root, '', 1);
}

async function* walkDirectory(
  options: WalkOptions,
  dir: string,
  relDir: string,
  depth: number,
): AsyncGenerator<WalkEntry> {
  throwIfAborted(options.signal);
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return; // unreadable or vanished directory: skip it, as `find` and `rg` do
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    throwIfAborted(options.signal);
    const path = join(dir, entry.name);
    const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (options.ignore.isIgnored(path, true)) continue;
      if (options.maxDepth === undefined || depth < options.maxDepth) {
        yield* walkDirectory(options, path, rel, depth + 1);
      }
    } else if (entry.isFile()) {
      if (!options.ignore.isIgnored(path, false)) yield { path, rel };
    } else if (entry.isSymbolicLink() && (await isSafeLinkedFile(options.guard, path))) {
      if (!options.ignore.isIgnored(path, false)) yield { path, rel };
    }
  }
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
