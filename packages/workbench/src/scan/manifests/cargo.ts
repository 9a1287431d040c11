import type { ParsedManifest } from '../types.ts';
import { resolveEntry, unique } from './manifest-paths.ts';
import { parseToml, stringAt, tableKeys } from './toml.ts';

/** Cargo.toml: package name, dependencies of every kind, and an explicit `[[bin]] path`. */
export function parseCargoToml(path: string, text: string): ParsedManifest {
  const toml = parseToml(text);
  const name = stringAt(toml, 'package', 'name');
  const tables = ['dependencies', 'dev-dependencies', 'build-dependencies', 'workspace.dependencies'];
  const binPath = stringAt(toml, 'bin', 'path');
  return {
    manifest: {
      path,
      kind: 'rust',
      ...(name ? { name } : {}),
      dependencies: unique(tables.flatMap((table) => tableKeys(toml, table))),
    },
    entries: binPath ? [resolveEntry(path, binPath)] : [],
    frameworks: [],
  };
}
