import { parse } from 'smol-toml';

/** A parsed TOML document, read only through the helpers below. */
export type TomlDocument = Record<string, unknown>;

/**
 * Parses a manifest's TOML (pyproject.toml, Cargo.toml, Pipfile). A scan is forgiving: a file that is not
 * valid TOML reads as empty rather than failing the whole scan.
 */
export function parseToml(text: string): TomlDocument {
  try {
    return parse(text) as TomlDocument;
  } catch {
    return {};
  }
}

/** The table at a dotted path (`tool.poetry.dependencies`); the first entry of an array of tables (`[[bin]]`). */
export function tableAt(document: TomlDocument, path: string): Record<string, unknown> | undefined {
  let value: unknown = document;
  for (const key of path.split('.').filter(Boolean)) {
    if (Array.isArray(value)) value = value[0];
    value = isTable(value) ? value[key] : undefined;
  }
  if (Array.isArray(value)) value = value[0];
  return isTable(value) ? value : undefined;
}

/** The keys of a table (dependency names in `[dependencies]`), or none. */
export function tableKeys(document: TomlDocument, path: string): string[] {
  return Object.keys(tableAt(document, path) ?? {});
}

/** A string value, or undefined when absent or of another type. */
export function stringAt(document: TomlDocument, table: string, key: string): string | undefined {
  const value = tableAt(document, table)?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** The strings of an array value (`dependencies = ["a", "b"]`), or none. */
export function arrayAt(document: TomlDocument, table: string, key: string): string[] {
  const value = tableAt(document, table)?.[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
