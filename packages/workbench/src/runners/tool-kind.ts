import { isAbsolute, normalize, relative } from 'node:path';
import { toolKindOfRuntimeTool } from '@keel/protocol/workbench/names';
import { createCodingTools } from '@keel/runtime';
import type { ToolKind } from './contract.ts';

// Keel's built-in tools, for the traits each declares (as `keel acp` reads them): a tool the runtime adds
// is shown by what it does, with no table here to edit. The table from traits to kinds is the protocol's,
// shared with keel-web's console.
const keelTools = createCodingTools();

/**
 * What a call of a Keel runner's tool does, so a client renders it without knowing the runner: from the
 * built-in tool's traits, then by name for the task list and the MCP meta tools.
 *
 * @example
 * toolKindOf('edit_file'); // 'file_edit'
 */
export function toolKindOf(toolName: string): ToolKind {
  return toolKindOfRuntimeTool(
    toolName,
    keelTools.has(toolName) ? keelTools.traitsOf(toolName).kind : undefined,
  );
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
