import { isAbsolute, normalize, relative } from 'node:path';
import { createCodingTools, type ToolTraits } from '@keel/runtime';
import type { ToolKind } from './contract.ts';

// Keel's built-in tools, for the traits each declares (as `keel acp` reads them): a tool the runtime adds
// is shown by what it does, with no table here to edit.
const keelTools = createCodingTools();

const kindOfTraits: Readonly<Record<ToolTraits['kind'], ToolKind>> = {
  read: 'file_read',
  edit: 'file_edit',
  search: 'search',
  execute: 'command',
  fetch: 'web',
  think: 'other',
  agent: 'other',
  other: 'other',
};

/**
 * How the workbench shows a call of a tool with these traits.
 *
 * @example
 * toolKindOfTraits({ kind: 'execute', readOnly: false, runsCommands: true }); // 'command'
 */
export function toolKindOfTraits(traits: ToolTraits): ToolKind {
  return kindOfTraits[traits.kind];
}

/**
 * What a call of a Keel runner's tool does, so a client renders it without knowing the runner: from the
 * built-in tool's traits. Traits do not tell a task list from other thinking, nor the MCP meta tools
 * (added by the runtime for configured servers, not built in) from other tools: those go by name.
 *
 * @example
 * toolKindOf('edit_file'); // 'file_edit'
 */
export function toolKindOf(toolName: string): ToolKind {
  const kind = keelTools.has(toolName) ? toolKindOfTraits(keelTools.traitsOf(toolName)) : 'other';
  if (kind !== 'other') return kind;
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
