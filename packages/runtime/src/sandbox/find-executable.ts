import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/** The full path of an executable found on `searchPath` (a PATH-style list), or undefined. */
export async function findExecutable(name: string, searchPath: string): Promise<string | undefined> {
  for (const dir of searchPath.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory: try the next.
    }
  }
  return undefined;
}
