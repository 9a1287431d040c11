import type { ParsedManifest } from '../types.ts';
import { isRecord, resolveEntry, stringEntries, unique } from './manifest-paths.ts';

const dependencyFields = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

/** package.json: name, scripts, every dependency kind, and main/module/bin as entry points. */
export function parsePackageJson(path: string, text: string): ParsedManifest | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(data)) return null;
  const dependencies = unique(
    dependencyFields.flatMap((field) => Object.keys(isRecord(data[field]) ? data[field] : {})),
  );
  const bin = typeof data.bin === 'string' ? [data.bin] : Object.values(stringEntries(data.bin));
  const entries = [data.main, data.module, ...bin].filter(
    (entry): entry is string => typeof entry === 'string',
  );
  const scripts = stringEntries(data.scripts);
  const frameworks = Object.values(scripts).some((script) => /\bnode\b[^&|;]*--test\b/.test(script))
    ? ['node:test']
    : [];
  return {
    manifest: {
      path,
      kind: 'npm',
      ...(typeof data.name === 'string' ? { name: data.name } : {}),
      ...(Object.keys(scripts).length > 0 ? { scripts } : {}),
      dependencies,
    },
    entries: unique(entries.map((entry) => resolveEntry(path, entry))),
    frameworks,
  };
}
