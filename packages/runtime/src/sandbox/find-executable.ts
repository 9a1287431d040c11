import { accessSync, constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/** The full path of an executable found on `searchPath` (a PATH-style list), or undefined. */
export async function findExecutable(name: string, searchPath: string): Promise<string | undefined> {
  for (const candidate of candidates(name, searchPath)) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory: try the next.
    }
  }
  return undefined;
}

/** As findExecutable, without waiting: for choosing a sandbox when a run's tools are set up. */
export function findExecutableSync(name: string, searchPath: string): string | undefined {
  for (const candidate of candidates(name, searchPath)) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory: try the next.
    }
  }
  return undefined;
}

function candidates(name: string, searchPath: string): string[] {
  return searchPath
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, name));
}
