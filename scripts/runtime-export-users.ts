// Which packages use each value `@keel/runtime` exports: for deciding what belongs on its public face
// (`@keel/runtime`) and what only Keel's own CLI and server need (`@keel/runtime/internal`).
//
//   node scripts/runtime-export-users.ts            a table: name, where it is exported, its users, README
//   node scripts/runtime-export-users.ts --json     the same as JSON
//
// A user is a file outside packages/runtime that imports the name from `@keel/runtime` or one of its
// subpaths (`import { x } from …`, `import type` excluded, `export { x } from …`); `src` and `test` are
// told apart. "README" says whether packages/runtime/README.md names it (the documented SDK).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const runtimeDir = join(root, 'packages/runtime');
const consumers = [
  'packages/cli',
  'packages/server',
  'packages/all',
  'packages/workbench',
  'packages/workbench-web',
  'packages/testkit',
  'packages/store-postgres',
  'bench',
];
const entries: Record<string, string> = {
  '@keel/runtime': 'src/index.ts',
  '@keel/runtime/internal': 'src/internal.ts',
};

/** The value names an entry file exports (`export { a, b } from`), without `export type` blocks. */
function valueExports(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const match of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
    if (match[1]) continue;
    for (const part of match[2]!.split(',')) {
      const trimmed = part.trim();
      if (trimmed && !trimmed.startsWith('type ')) names.push(trimmed.split(/\s+as\s+/).pop()!);
    }
  }
  return names;
}

function* sourceFiles(dir: string): Generator<string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name)) yield path;
  }
}

/** name → the places (`packages/cli (src)`) that import it from @keel/runtime or a subpath. */
const users = new Map<string, Set<string>>();
for (const consumer of consumers) {
  for (const file of sourceFiles(join(root, consumer))) {
    const text = readFileSync(file, 'utf8');
    const inSrc = relative(join(root, consumer), file).startsWith('src');
    const kind = consumer === 'bench' ? 'bench' : inSrc ? 'src' : 'test';
    const pattern =
      /(?:import|export)\s+(type\s+)?\{([^}]*)\}\s+from\s+['"](@keel\/runtime(?:\/[\w/-]+)?)['"]/g;
    for (const match of text.matchAll(pattern)) {
      if (match[1]) continue;
      for (const part of match[2]!.split(',')) {
        const trimmed = part.trim();
        if (!trimmed || trimmed.startsWith('type ')) continue;
        const name = trimmed.split(/\s+as\s+/)[0]!;
        const place = kind === 'bench' ? consumer : `${consumer} (${kind})`;
        users.set(name, (users.get(name) ?? new Set()).add(place));
      }
    }
  }
}

const readme = readFileSync(join(runtimeDir, 'README.md'), 'utf8');
const rows = Object.entries(entries).flatMap(([entry, file]) =>
  valueExports(join(runtimeDir, file)).map((name) => ({
    name,
    entry,
    users: [...(users.get(name) ?? [])].sort(),
    readme: new RegExp(`\\b${name}\\b`).test(readme),
  })),
);
rows.sort((a, b) => a.entry.localeCompare(b.entry) || a.name.localeCompare(b.name));

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  for (const row of rows) {
    const used = row.users.length ? row.users.join(', ') : '(nobody outside the runtime)';
    console.log(
      `${row.name.padEnd(28)} ${row.entry.padEnd(24)} ${row.readme ? 'README ' : '       '} ${used}`,
    );
  }
}
