import { languageOf } from './languages.ts';

const maxEntryPoints = 40;
const entryNames = new Set(['index', 'main', 'app', 'server', 'cli']);
const entryFolders = new Set(['', 'src', 'app', 'lib', 'bin', 'server', 'cmd']);

/** Well-known places where execution starts, whatever the manifests say. */
function isConventionalEntry(path: string): boolean {
  const parts = path.split('/');
  const name = parts.at(-1) ?? '';
  const folder = parts.slice(0, -1).join('/');
  const stem = name.replace(/\.[^.]+$/, '');
  if (parts.length > 5) return false;
  if (name === '__main__.py' || (name === 'manage.py' && folder === '')) return true;
  if (/(^|\/)cmd\/[^/]+\/main\.go$/.test(path)) return true;
  if (/(^|\/)src\/(main|lib)\.rs$/.test(path) || /(^|\/)src\/bin\/[^/]+\.rs$/.test(path)) return true;
  if (/(^|\/)src\/main\/(java|kotlin)\/.+Application\.(java|kt)$/.test(path)) return true;
  return entryFolders.has(folder) && entryNames.has(stem) && languageOf(path) !== null;
}

/** Entry points: those the manifests name (when the file exists), then conventional ones; at most 40. */
export function findEntryPoints(files: readonly string[], manifestEntries: readonly string[]): string[] {
  const present = new Set(files);
  const named = manifestEntries.filter((entry) => present.has(entry));
  const conventional = files.filter(isConventionalEntry).sort(byDepthThenName);
  return [...new Set([...named, ...conventional])].slice(0, maxEntryPoints);
}

function byDepthThenName(a: string, b: string): number {
  return a.split('/').length - b.split('/').length || a.localeCompare(b);
}
