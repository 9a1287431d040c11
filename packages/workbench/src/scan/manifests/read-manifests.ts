import { readNoFollow } from '../../files/index.ts';
import type { ParsedManifest } from '../types.ts';
import { parseCargoToml } from './cargo.ts';
import { parseGoMod } from './go-mod.ts';
import { parseGradle, parsePom } from './jvm.ts';
import { parsePackageJson } from './npm.ts';
import { parseComposerJson, parseDotnetProject, parseGemfile } from './other-ecosystems.ts';
import { parsePipfile, parsePyproject, parseRequirements, parseSetupPy } from './python.ts';

type Parser = (path: string, text: string) => ParsedManifest | null;

const byName: Record<string, Parser> = {
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
};

const maxManifests = 100;
const maxManifestBytes = 1024 * 1024;

function parserFor(path: string): Parser | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (/^requirements([-_.][\w.-]*)?\.txt$/.test(name)) return parseRequirements;
  if (/\.(cs|fs)proj$/.test(name)) return parseDotnetProject;
  return byName[name];
}

/**
 * Reads the manifests among `files` (shallowest first, at most 100, each at most 1 MiB); unreadable ones are
 * skipped, and so is a link (at the file or a folder on its way), which is never read through.
 */
export async function readManifests(root: string, files: readonly string[]): Promise<ParsedManifest[]> {
  const candidates = files
    .filter((file) => parserFor(file))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))
    .slice(0, maxManifests);
  const parsed: ParsedManifest[] = [];
  for (const path of candidates) {
    const read = await readNoFollow(root, path, { maxBytes: maxManifestBytes }).catch(() => undefined);
    const result = read && read.why === undefined ? parserFor(path)?.(path, read.text) : null;
    if (result) parsed.push(result);
  }
  return parsed;
}
