// This package takes the run and spawn requests, the run statuses and the kinds of sub-agent from the
// runtime's `@keel/runtime/wire` (docs/decisions/2026-11-28-wire-defined-once.md), and must still load in
// a browser. So every file those entries reach stays in the runtime's src/wire/ and imports zod at most;
// `/wire/names`, which `@keel/protocol/runtime/names` re-exports for bundles that skip zod, imports nothing.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as protocol from '@keel/protocol/runtime';
import * as runtimeWire from '@keel/runtime/wire';
import { describe, expect, test } from 'vitest';

const runtimeDir = join(import.meta.dirname, '..', '..', 'runtime');
const wireDir = join(runtimeDir, 'src', 'wire');

/** The source file of one of the runtime's subpaths, as its package.json names it. */
function entryOf(subpath: string): string {
  const manifest = JSON.parse(readFileSync(join(runtimeDir, 'package.json'), 'utf8')) as {
    exports: Record<string, Record<string, string>>;
  };
  const source = manifest.exports[subpath]?.['@keel/source'];
  if (!source) throw new Error(`@keel/runtime has no subpath ${subpath}`);
  return join(runtimeDir, source);
}

/** Every file `entry` reaches through relative imports, and the packages they import by name. */
function reach(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier = ''] of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return { files: [...files].map((file) => relative(wireDir, file)).sort(), packages: [...packages].sort() };
}

describe('@keel/runtime/wire', () => {
  test('reaches only files of src/wire/, and of packages only zod', () => {
    const { files, packages } = reach(entryOf('./wire'));
    expect(files).toContain('run-request.ts');
    expect(files.filter((file) => file.startsWith('..'))).toEqual([]);
    expect(packages).toEqual(['zod']);
  });

  test('its names import nothing at all', () => {
    expect(reach(entryOf('./wire/names'))).toEqual({ files: ['names.ts'], packages: [] });
  });

  test("the protocol's run and spawn requests are the runtime's schemas, not copies", () => {
    expect(protocol.runRequest).toBe(runtimeWire.runRequestSchema);
    expect(protocol.imagePayloadInput).toBe(runtimeWire.imagePayloadSchema);
    expect(protocol.spawnRequest).toBe(runtimeWire.spawnRequestSchema);
    expect(protocol.runStatuses).toBe(runtimeWire.runStatuses);
    expect(protocol.subAgentTypes).toBe(runtimeWire.subAgentTypes);
  });
});
