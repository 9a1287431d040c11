import { isAbsolute, normalize, relative } from 'node:path';
import type { ToolKind } from './contract.ts';

const exactKinds: Readonly<Record<string, ToolKind>> = {
  read_file: 'file_read',
  edit_file: 'file_edit',
  write_file: 'file_edit',
  patch: 'file_edit',
  // Undo and redo rewrite the file as surely as an edit does.
  undo_file: 'file_edit',
  redo_file: 'file_edit',
  exec_command: 'command',
  grep: 'search',
  glob: 'search',
  search_files: 'search',
  list_directory: 'search',
  webfetch: 'web',
  websearch: 'web',
};

/**
 * What a tool call does, from the tool's name, so a client renders it without knowing the runner.
 *
 * @example
 * toolKindOf('edit_file'); // 'file_edit'
 */
export function toolKindOf(toolName: string): ToolKind {
  const exact = exactKinds[toolName];
  if (exact) return exact;
  if (toolName.startsWith('todo_')) return 'todo';
  if (toolName.startsWith('mcp_')) return 'mcp';
  return 'other';
}

/**
 * The file a read or edit call names (`path` or `file_path`), relative to the workdir when it lies inside
 * one of `workdirs` (the first is the workdir as given, the rest its other spellings, e.g. symlinks resolved).
 */
export function toolPathOf(
  kind: ToolKind,
  args: Record<string, unknown>,
  workdirs: readonly string[],
): string | undefined {
  if (kind !== 'file_read' && kind !== 'file_edit') return undefined;
  const given =
    typeof args.path === 'string'
      ? args.path
      : typeof args.file_path === 'string'
        ? args.file_path
        : undefined;
  if (!given) return undefined;
  if (!isAbsolute(given)) return normalize(given);
  for (const workdir of workdirs) {
    const inside = relative(workdir, given);
    if (inside && !inside.startsWith('..') && !isAbsolute(inside)) return inside;
  }
  return given;
}
