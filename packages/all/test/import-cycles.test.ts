// No import knot (issue #43): within each package's src/, no files import each other in a circle, type
// imports included (Biome's noImportCycles does not see type-only cycles). A knot that exists today is
// named below with its size as a cap: it may shrink, never grow, and leaves the list once it is untied.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

/** Today's knots, by package, with how many files each may hold at most. */
const knownKnots: Readonly<Record<string, { maxFiles: number; why: string }>> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    if (entry === 'node_modules' || entry === 'dist') return [];
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry) ? [path] : [];
  });
}

/** The files a file imports or re-exports by relative path, type-only imports included. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)];
  return specifiers.flatMap((match) => {
    const target = resolve(dirname(file), match[1] ?? '');
    const candidates = [target, `${target}.ts`, `${target}.tsx`, join(target, 'index.ts')];
    const found = candidates.find((path) => statSync(path, { throwIfNoEntry: false })?.isFile());
    return found ? [found] : [];
  });
}

/** The strongly connected groups of more than one file (Tarjan's algorithm), each a circle of imports. */
function knots(files: string[]): string[][] {
  const edges = new Map(files.map((file) => [file, importsOf(file)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) groups.push(group);
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return groups;
}

test('no package has files that import each other in a circle, type imports included', () => {
  const problems: string[] = [];
  const packages = join(root, 'packages');
  for (const name of readdirSync(packages)) {
    const src = join(packages, name, 'src');
    if (!statSync(src, { throwIfNoEntry: false })?.isDirectory()) continue;
    const found = knots(sourceFiles(src));
    const known = knownKnots[name];
    const sizes = found.map((group) => group.length);
    if (known && found.length === 0) problems.push(`${name}: untied, take it off knownKnots`);
    if (known && found.length === 1 && sizes[0]! > known.maxFiles) {
      problems.push(`${name}: its knot grew to ${sizes[0]} files, past its cap of ${known.maxFiles}`);
    }
    if ((known && found.length > 1) || (!known && found.length > 0)) {
      for (const group of found) {
        const files = group.map((file) => relative(root, file)).sort();
        problems.push(`${name}: ${group.length} files import each other in a circle: ${files.join(', ')}`);
      }
    }
  }
  expect(problems).toEqual([]);
});
