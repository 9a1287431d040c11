import { join } from 'node:path';
import { type PinChanges, type ProjectConfigPin, pinChanges } from './config-pin.ts';
import { canonicalPath, isTrustedFolder } from './project-trust.ts';
import type { RuntimeConfig } from './schema.ts';

/** One approval in the global config's `trusted_project_configs`: a file and what it asked for then. */
export interface ProjectConfigApproval extends ProjectConfigPin {
  /** When the user approved it (ISO 8601). */
  trusted_at?: string;
}

/**
 * Why a project file's security-relevant keys apply or not, when the global config decides:
 * - `approved`: this very file was approved asking for exactly what it asks for now;
 * - `changed`: it was approved, but asks for something else now (`changes` says what);
 * - `old-folder-entry`: only a `trusted_folders` entry (before pinning) covers it: it trusts nothing;
 * - `not-approved`: nothing covers it.
 * `embedder` when `trustProjectConfig` decided, `own-file` for the global file itself.
 */
export interface ConfigApproval {
  status: 'approved' | 'changed' | 'old-folder-entry' | 'not-approved' | 'embedder' | 'own-file';
  changes: PinChanges;
}

const noChanges: PinChanges = { changed: [], added: [], removed: [] };

/** The global config's decision on the pin of a file in `projectDir`. */
export function approvalOf(
  globalConfig: RuntimeConfig,
  pin: ProjectConfigPin,
  projectDir: string,
): ConfigApproval {
  const approved = approvalsIn(globalConfig).find((entry) => entry.file === pin.file);
  if (approved) {
    if (approved.sha256 === pin.sha256) return { status: 'approved', changes: noChanges };
    return { status: 'changed', changes: pinChanges(approved, pin) };
  }
  if (isTrustedFolder(projectDir, globalConfig.trusted_folders)) {
    return { status: 'old-folder-entry', changes: noChanges };
  }
  return { status: 'not-approved', changes: noChanges };
}

/** The approvals of the global config (its schema checked each entry's fields). */
export function approvalsIn(globalConfig: RuntimeConfig): ProjectConfigApproval[] {
  return (globalConfig.trusted_project_configs ?? []).map(({ file, sha256, keys, trusted_at }) => ({
    file,
    sha256,
    keys,
    ...(trusted_at ? { trusted_at } : {}),
  }));
}

/** Where a folder's project file is pinned: its folder with links followed, so a link cannot borrow a pin. */
export function pinnedFileOf(projectDir: string): string {
  return join(canonicalPath(projectDir), '.runtime', 'config.json');
}
