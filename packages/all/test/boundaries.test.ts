// The repository's import rules (AGENTS.md), checked over every package's sources and tests:
// - a folder of a package's src/ that has an index.ts is a public face: code outside the folder imports
//   only that index, never a file behind it;
// - a package reaches another package by its name (@keel/…), never through a relative path; only tests
//   may share another package's test files (the store contract suite runs on both stores).
// Import cycles, type-only ones included, are checked in import-cycles.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { expect, test } from 'vitest';

const packagesDir = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'bundle') return [];
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry) ? [path] : [];
  });
}

/** Relative specifiers of static and dynamic imports and re-exports. */
function relativeImports(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (match) => match[1] ?? '',
  );
}

function isDir(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

function hasIndex(folder: string): boolean {
  return statSync(join(folder, 'index.ts'), { throwIfNoEntry: false }) !== undefined;
}

function violations(): string[] {
  const found: string[] = [];
  for (const name of readdirSync(packagesDir)) {
    const packageDir = join(packagesDir, name);
    if (!isDir(packageDir)) continue;
    const src = join(packageDir, 'src');
    for (const folder of ['src', 'test', 'scripts', 'bin']) {
      if (!isDir(join(packageDir, folder))) continue;
      for (const file of sourceFiles(join(packageDir, folder))) {
        const where = relative(packagesDir, file);
        for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
          const target = resolve(dirname(file), specifier);
          const inPackages = !relative(packagesDir, target).startsWith('..');
          const [, otherFolder] = relative(packagesDir, target).split(sep);
          const sharedTest = folder === 'test' && otherFolder === 'test';
          if (inPackages && relative(packageDir, target).startsWith('..') && !sharedTest) {
            found.push(`${where} imports ${specifier}: another package by path; import it by its name`);
            continue;
          }
          if (folder !== 'src' || relative(src, target).startsWith('..')) continue;
          const [targetTop, ...rest] = relative(src, target).split(sep);
          const [fileTop] = relative(src, file).split(sep);
          const intoFolder = targetTop !== undefined && rest.length > 0 && targetTop !== fileTop;
          if (intoFolder && hasIndex(join(src, targetTop)) && rest.join('/') !== 'index.ts') {
            found.push(`${where} imports ${specifier}: use ${targetTop}/index.ts, the folder's public face`);
          }
        }
      }
    }
  }
  return found;
}

test('folders are imported through their index.ts, and packages by name', () => {
  expect(violations()).toEqual([]);
});
