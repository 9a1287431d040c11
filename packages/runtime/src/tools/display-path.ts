import { relative, sep } from 'node:path';
import type { PathGuard } from './path-guard.ts';

/**
 * How a path is shown to the model: relative to the workdir with `/` separators (`.` for the workdir
 * itself), or absolute when it lies outside (an allowed root, or a read with a loose boundary).
 */
export function displayPath(guard: PathGuard, absPath: string): string {
  const rel = relative(guard.workdir, absPath);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || rel.startsWith(sep)) return absPath;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** A displayed path in a sentence: `.` reads badly, so the workdir is named in words. */
export function describeLocation(shown: string): string {
  return shown === '.' ? 'the working directory' : shown;
}
