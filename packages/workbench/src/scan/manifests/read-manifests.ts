import { readNoFollow } from '../../files/index.ts';
import type { ParsedManifest } from '../types.ts';
import { parseCargoToml } from './cargo.ts';
import { parseGoMod } from './go-mod.ts';
import { parseGradle, parsePom } from './jvm.ts';
import { parsePackageJson } from './npm.ts';
import { parseComposerJson, parseDotnetProject, parseGemfile } from './other-ecosystems.ts';
import { parsePipfile, parsePyproject, parseRequirements, parseSetupPy } from './python.ts';

type Parser = (path: string, text: string) => ParsedManifest | null;

const byName = new Map<string, Parser>(
  Object.entries({
    'package.json': parsePackageJson,
    'pyproject.toml': parsePyproject,
    Pipfile: parsePipfile,
    'setup.py': parseSetupPy,
    'go.mod': parseGoMod,
    'Cargo.toml': parseCargoToml,
    'pom.xml': parsePom,
    'build.gradle': parseGradle,
    'build.gradle.kts': parseGradle,
    Gemfile: parseGemfile,
    'composer.json': parseComposerJson,
  }),
);

const maxManifests = 100;
const maxManifestBytes = 1024 * 1024;

function parserForName(name: string): Parser | undefined {
  // Only a name starting with `requirements` meets the expression.
  if (name.startsWith('requirements') && /^requirements([-_.][\w.-]*)?\.txt$/.test(name)) {
    return parseRequirements;
  }
  if (name.endsWith('.csproj') || name.endsWith('.fsproj')) return parseDotnetProject;
  return byName.get(name);
}

/** True for a file name a manifest parser reads (`package.json`, `requirements-dev.txt`, `x.csproj`...). */
export function isManifestName(name: string): boolean {
  return parserForName(name) !== undefined;
}

/**
 * Reads the manifests among `candidates` (the paths whose names `isManifestName` accepts; shallowest first,
 * at most 100, each at most 1 MiB); unreadable ones are skipped, and so is a link (at the file or a folder
 * on its way), which is never read through.
 */
export async function readManifests(root: string, candidates: readonly string[]): Promise<ParsedManifest[]> {
  const chosen = [...candidates]
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))
    .slice(0, maxManifests);
  const parsed: ParsedManifest[] = [];
  for (const path of chosen) {
    const read = await readNoFollow(root, path, { maxBytes: maxManifestBytes }).catch(() => undefined);
    const parser = parserForName(path.slice(path.lastIndexOf('/') + 1));
    const result = read && read.why === undefined ? parser?.(path, read.text) : null;
    if (result) parsed.push(result);
  }
  return parsed;
}
