import { approvalsIn, type ProjectConfigApproval, pinnedFileOf } from './approval.ts';
import { configFileAt } from './config-file.ts';
import type { ProjectConfigPin } from './config-pin.ts';
import { globalConfigPath, loadConfigReport, readConfigFile } from './files.ts';
import { canonicalPath } from './project-trust.ts';

/**
 * The approvals of project files, in the global config's `trusted_project_configs`: each names one
 * `.runtime/config.json` and pins what it asked for when the user approved it. Kept only in
 * `<runtime dir>/config.json`, never in a project file, and changed only by the user's own commands
 * (`keel trust`, `keel untrust`) or the embedder (docs/decisions/2026-11-28-trust-pinned-to-content.md).
 */
export function approvedProjectConfigs(runtimeDir: string): ProjectConfigApproval[] {
  return approvalsIn(readConfigFile(globalConfigPath(runtimeDir)));
}

/**
 * The global config's `trusted_folders`, from before trust was pinned to content: such an entry trusts
 * nothing now; `keel trust --list` shows them so the user can approve each project file again.
 */
export function trustedFolders(runtimeDir: string): string[] {
  return readConfigFile(globalConfigPath(runtimeDir)).trusted_folders ?? [];
}

/**
 * Approves the project file of `dir` as it asks now, or as `seen` (the pin of the report the user was
 * shown, so a file changed while they read it is not approved). Replaces an earlier approval of the same
 * file and drops an old `trusted_folders` entry for `dir` itself. Answers the approval recorded.
 */
export async function trustFolder(
  runtimeDir: string,
  dir: string,
  seen?: ProjectConfigPin,
): Promise<ProjectConfigApproval> {
  const folder = canonicalPath(dir);
  const pin = seen ?? loadConfigReport(runtimeDir, folder, false).pin;
  const file = pinnedFileOf(folder);
  const approval: ProjectConfigApproval = {
    file,
    sha256: pin.sha256,
    keys: pin.keys,
    trusted_at: new Date().toISOString(),
  };
  await configFileAt(globalConfigPath(runtimeDir)).update((current) => {
    const { trusted_folders: legacy, ...rest } = current;
    const folders = stringList(legacy).filter((entry) => canonicalPath(entry) !== folder);
    return {
      ...rest,
      ...(legacy !== undefined ? { trusted_folders: folders } : {}),
      trusted_project_configs: [...approvalList(current).filter((entry) => entry.file !== file), approval],
    };
  });
  return approval;
}

/** Withdraws the approval of the project file of `dir` (and an old `trusted_folders` entry for `dir`). */
export async function untrustFolder(
  runtimeDir: string,
  dir: string,
): Promise<{ folder: string; file: string; removed: boolean }> {
  const folder = canonicalPath(dir);
  const file = pinnedFileOf(folder);
  let removed = false;
  await configFileAt(globalConfigPath(runtimeDir)).update((current) => {
    const approvals = approvalList(current);
    const kept = approvals.filter((entry) => entry.file !== file);
    const folders = stringList(current.trusted_folders);
    const keptFolders = folders.filter((entry) => canonicalPath(entry) !== folder);
    removed = kept.length !== approvals.length || keptFolders.length !== folders.length;
    if (!removed) return current;
    return {
      ...current,
      ...(current.trusted_project_configs !== undefined ? { trusted_project_configs: kept } : {}),
      ...(current.trusted_folders !== undefined ? { trusted_folders: keptFolders } : {}),
    };
  });
  return { folder, file, removed };
}

function approvalList(current: Record<string, unknown>): Array<Record<string, unknown>> {
  const list = current.trusted_project_configs;
  return Array.isArray(list)
    ? list.filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null)
    : [];
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}
