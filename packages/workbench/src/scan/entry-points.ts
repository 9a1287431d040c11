const maxEntryPoints = 40;
const entryNames = new Set(['index', 'main', 'app', 'server', 'cli']);
const entryFolders = new Set(['', 'src', 'app', 'lib', 'bin', 'server', 'cmd']);
const jvmApplication = /(^|\/)src\/main\/(java|kotlin)\/.+Application\.(java|kt)$/;

/** What the entry-point rules ask of a folder, worked out once for all of its files. */
export interface EntryFolder {
  path: string;
  /** Folder levels: 0 for the root. */
  depth: number;
  /** Its last name and the one above ('' when there is none). */
  last: string;
  aboveLast: string;
}

export function entryFolder(path: string): EntryFolder {
  const parts = path === '' ? [] : path.split('/');
  return { path, depth: parts.length, last: parts.at(-1) ?? '', aboveLast: parts.at(-2) ?? '' };
}

/**
 * Well-known places where execution starts, whatever the manifests say: `__main__.py`, `manage.py`,
 * `cmd/x/main.go`, `src/main.rs`, `src/bin/x.rs`, `src/main/java/…Application.java`, and index/main/app/
 * server/cli in a known language at the root or in src, app, lib, bin, server or cmd. `dot` is the index of
 * the name's last '.', `language` its language.
 */
export function isConventionalEntry(
  folder: EntryFolder,
  name: string,
  dot: number,
  language: string | null,
): boolean {
  if (folder.depth >= 5) return false;
  if (name === '__main__.py' || (name === 'manage.py' && folder.path === '')) return true;
  if (name === 'main.go' && folder.aboveLast === 'cmd') return true;
  if ((name === 'main.rs' || name === 'lib.rs') && folder.last === 'src') return true;
  if (name.endsWith('.rs') && name.length > 3 && folder.last === 'bin' && folder.aboveLast === 'src') {
    return true;
  }
  // Rare enough to check with the whole expression.
  if (
    (name.endsWith('Application.java') || name.endsWith('Application.kt')) &&
    jvmApplication.test(folder.path === '' ? name : `${folder.path}/${name}`)
  ) {
    return true;
  }
  const stem = dot >= 0 && dot < name.length - 1 ? name.slice(0, dot) : name;
  return entryFolders.has(folder.path) && entryNames.has(stem) && language !== null;
}

/**
 * Entry points: those the manifests name (when the file exists), then the conventional ones by depth and
 * name; at most 40.
 */
export function entryPoints(
  conventional: readonly string[],
  manifestEntries: readonly string[],
  exists: (path: string) => boolean,
): string[] {
  const named = manifestEntries.filter(exists);
  return [...new Set([...named, ...[...conventional].sort(byDepthThenName)])].slice(0, maxEntryPoints);
}

function byDepthThenName(a: string, b: string): number {
  return a.split('/').length - b.split('/').length || a.localeCompare(b);
}
