import type { ParsedManifest } from '../types.ts';
import { isRecord, stringEntries, unique } from './manifest-paths.ts';

/** Gemfile: each `gem 'name'`. */
export function parseGemfile(path: string, text: string): ParsedManifest {
  const dependencies = [...text.matchAll(/^\s*gem\s+["']([^"']+)["']/gm)].map((match) => match[1] ?? '');
  return {
    manifest: { path, kind: 'ruby', dependencies: unique(dependencies) },
    entries: [],
    frameworks: [],
  };
}

/** composer.json: name, scripts, require and require-dev (PHP itself and extensions skipped). */
export function parseComposerJson(path: string, text: string): ParsedManifest | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(data)) return null;
  const keys = ['require', 'require-dev'].flatMap((field) =>
    Object.keys(isRecord(data[field]) ? data[field] : {}),
  );
  const scripts = stringEntries(data.scripts);
  return {
    manifest: {
      path,
      kind: 'php',
      ...(typeof data.name === 'string' ? { name: data.name } : {}),
      ...(Object.keys(scripts).length > 0 ? { scripts } : {}),
      dependencies: unique(keys.filter((key) => key !== 'php' && !key.startsWith('ext-'))),
    },
    entries: [],
    frameworks: [],
  };
}

/** *.csproj / *.fsproj: the project name (file name) and each PackageReference. */
export function parseDotnetProject(path: string, text: string): ParsedManifest {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  const dependencies = [...text.matchAll(/<PackageReference\s+Include="([^"]+)"/g)].map(
    (match) => match[1] ?? '',
  );
  return {
    manifest: { path, kind: 'dotnet', name, dependencies: unique(dependencies) },
    entries: [],
    frameworks: [],
  };
}
