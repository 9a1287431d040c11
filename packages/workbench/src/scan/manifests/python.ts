import type { ParsedManifest } from '../types.ts';
import { unique } from './manifest-paths.ts';
import { arrayAt, parseToml, stringAt, tableKeys } from './toml.ts';

/** The package name of a requirement such as `requests[socks]>=2; python_version<"3.12"`. */
export function requirementName(spec: string): string {
  return /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec)?.[1] ?? '';
}

/** pyproject.toml (PEP 621, Poetry, dependency groups). */
export function parsePyproject(path: string, text: string): ParsedManifest {
  const toml = parseToml(text);
  const groupTables = tableKeys(toml, 'tool.poetry.group').map(
    (group) => `tool.poetry.group.${group}.dependencies`,
  );
  const optional = tableKeys(toml, 'project.optional-dependencies');
  const groups = tableKeys(toml, 'dependency-groups');
  const specs = [
    ...arrayAt(toml, 'project', 'dependencies'),
    ...optional.flatMap((key) => arrayAt(toml, 'project.optional-dependencies', key)),
    ...groups.flatMap((key) => arrayAt(toml, 'dependency-groups', key)),
    ...['tool.poetry.dependencies', 'tool.poetry.dev-dependencies', ...groupTables].flatMap((t) =>
      tableKeys(toml, t),
    ),
  ];
  const scripts: Record<string, string> = {};
  for (const table of ['project.scripts', 'tool.poetry.scripts']) {
    for (const key of tableKeys(toml, table)) {
      const value = stringAt(toml, table, key);
      if (value) scripts[key] = value;
    }
  }
  const name = stringAt(toml, 'project', 'name') ?? stringAt(toml, 'tool.poetry', 'name');
  return {
    manifest: {
      path,
      kind: 'python',
      ...(name ? { name } : {}),
      ...(Object.keys(scripts).length > 0 ? { scripts } : {}),
      dependencies: unique(specs.map(requirementName).filter((dep) => dep !== 'python')),
    },
    entries: [],
    frameworks: tableKeys(toml, 'tool.pytest').includes('ini_options') ? ['pytest'] : [],
  };
}

/** requirements*.txt: one requirement a line; options (-r, -e, --index-url) and comments skipped. */
export function parseRequirements(path: string, text: string): ParsedManifest {
  const specs = text.split(/\r?\n/).filter((line) => !/^\s*(#|-|$)/.test(line));
  return {
    manifest: { path, kind: 'python', dependencies: unique(specs.map(requirementName)) },
    entries: [],
    frameworks: [],
  };
}

/** Pipfile: [packages] and [dev-packages]. */
export function parsePipfile(path: string, text: string): ParsedManifest {
  const toml = parseToml(text);
  const dependencies = unique([...tableKeys(toml, 'packages'), ...tableKeys(toml, 'dev-packages')]);
  return { manifest: { path, kind: 'python', dependencies }, entries: [], frameworks: [] };
}

/** setup.py, read (never run): `name=` and the strings of `install_requires=[...]`. */
export function parseSetupPy(path: string, text: string): ParsedManifest {
  const name = /\bname\s*=\s*["']([^"']+)["']/.exec(text)?.[1];
  const requires = /install_requires\s*=\s*\[([\s\S]*?)\]/.exec(text)?.[1] ?? '';
  const specs = [...requires.matchAll(/["']([^"']+)["']/g)].map((match) => requirementName(match[1] ?? ''));
  return {
    manifest: { path, kind: 'python', ...(name ? { name } : {}), dependencies: unique(specs) },
    entries: [],
    frameworks: [],
  };
}
