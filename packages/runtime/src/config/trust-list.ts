import { configFileAt } from './config-file.ts';
import { globalConfigPath, readConfigFile } from './files.ts';
import { canonicalPath, isTrustedFolder } from './project-trust.ts';

/**
 * The global config's `trusted_folders`: folders whose project `.runtime/config.json` applies in full. Kept
 * only in `<runtime dir>/config.json`, never in a project file, and changed only by the user's own commands
 * (`keel trust`, `keel untrust`) or the embedder.
 */
export function trustedFolders(runtimeDir: string): string[] {
  return readConfigFile(globalConfigPath(runtimeDir)).trusted_folders ?? [];
}

/** Whether `dir` is trusted by the global list (itself or a folder above it). */
export function isFolderTrusted(runtimeDir: string, dir: string): boolean {
  return isTrustedFolder(dir, trustedFolders(runtimeDir));
}

/** Adds `dir` (absolute, links followed) to the trust list; returns it as stored. */
export async function trustFolder(runtimeDir: string, dir: string): Promise<string> {
  const folder = canonicalPath(dir);
  await configFileAt(globalConfigPath(runtimeDir)).update((current) => {
    const list = stringList(current.trusted_folders);
    return list.includes(folder) ? current : { ...current, trusted_folders: [...list, folder] };
  });
  return folder;
}

/**
 * Removes `dir` from the trust list. Answers whether an entry was removed and whether the folder is
 * still trusted (by a folder above it, which stays).
 */
export async function untrustFolder(
  runtimeDir: string,
  dir: string,
): Promise<{ folder: string; removed: boolean; stillTrusted: boolean }> {
  const folder = canonicalPath(dir);
  let removed = false;
  await configFileAt(globalConfigPath(runtimeDir)).update((current) => {
    const list = stringList(current.trusted_folders);
    const kept = list.filter((entry) => canonicalPath(entry) !== folder);
    removed = kept.length !== list.length;
    return removed ? { ...current, trusted_folders: kept } : current;
  });
  return { folder, removed, stillTrusted: isFolderTrusted(runtimeDir, folder) };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}
