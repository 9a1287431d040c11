import type { JsonObject } from '../store/index.ts';
import type { ToolFilter } from '../tools/index.ts';

/**
 * The include_tools/exclude_tools of a sub-agent's run: its parent's filter, so a sub-agent never has a
 * tool its parent could not use (a read-only `keel acp` session, a run with `exclude_tools`). The parent's
 * exclusions pass as they are; its inclusions are narrowed to `typeTools` (the names the sub-agent's type
 * takes from the run's tools), since include_tools refuses a name its run does not have. Without
 * `typeTools` they pass whole: a sub-agent whose type lacks one of them then fails to start, never widens.
 */
export function inheritedToolFilter(parentInput: JsonObject, typeTools?: readonly string[]): ToolFilter {
  const include = names(parentInput.include_tools);
  if (include) return { include: typeTools ? typeTools.filter((name) => include.includes(name)) : include };
  const exclude = names(parentInput.exclude_tools);
  return exclude ? { exclude } : {};
}

/** A run input's filter as the request fields that carry it. */
export function toolFilterInput(filter: ToolFilter): JsonObject {
  return {
    ...(filter.include ? { include_tools: filter.include } : {}),
    ...(filter.exclude ? { exclude_tools: filter.exclude } : {}),
  };
}

function names(value: JsonObject[string] | undefined): string[] | undefined {
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : undefined;
}
