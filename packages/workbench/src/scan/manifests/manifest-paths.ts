import { posix } from 'node:path';

/** `entry` (as written in the manifest at `manifestPath`) as a path relative to the scanned root. */
export function resolveEntry(manifestPath: string, entry: string): string {
  return posix.normalize(posix.join(posix.dirname(manifestPath), entry)).replace(/^\.\//, '');
}

/** Unique, non-empty strings in first-seen order. */
export function unique(values: Iterable<string>): string[] {
  return [...new Set([...values].filter((value) => value !== ''))];
}

/** Plain-object check for parsed JSON. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The string-valued entries of a JSON object (scripts, bin maps). */
export function stringEntries(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
