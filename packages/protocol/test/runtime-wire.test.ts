// This package takes the run and spawn requests, the run statuses, the kinds of sub-agent and the run events
// from the runtime's `@keel/runtime/wire` (docs/decisions/2026-11-28-wire-defined-once.md), and must still load in
// a browser. So every file those entries reach stays in the runtime's src/wire/ and imports zod at most;
// `/wire/names`, which `@keel/protocol/runtime/names` re-exports for bundles that skip zod, imports nothing.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as protocol from '@keel/protocol/runtime';
import * as runtimeWire from '@keel/runtime/wire';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

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

// The mapped type keeps each event's literal `type` and fields: the protocol's event types are the runtime's
// (a wrong one fails `npm run typecheck`).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<T extends true> = T;
export type EventTypesAgree = [
  Check<Same<protocol.RunEvent, runtimeWire.RuntimeEvent>>,
  Check<
    {
      [K in runtimeWire.EventType]: Same<protocol.RunEventOf<K>, runtimeWire.EventOf<K>>;
    }[runtimeWire.EventType]
  >,
];

describe('@keel/runtime/wire', () => {
  test('reaches only files of src/wire/, and of packages only zod', () => {
    const { files, packages } = reach(entryOf('./wire'));
    expect(files).toContain('run-request.ts');
    expect(files).toContain('events.ts');
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

  test("the protocol's run events are the runtime's table, each with `type` and `session_id` first", () => {
    expect(protocol.runEventTypes).toEqual(Object.keys(runtimeWire.eventSchemas));
    for (const type of protocol.runEventTypes) {
      const wire = runtimeWire.eventSchemas[type];
      const event = protocol.runEventSchemas[type];
      expect(Object.keys(event.shape), type).toEqual(['type', 'session_id', ...Object.keys(wire.shape)]);
      expect(event.shape.type.value, type).toBe(type);
      expect(event.shape.session_id, type).toBeInstanceOf(z.ZodString);
      expect(event.description, type).toBe(wire.description);
      // Each field is the runtime's own schema, descriptions and all; the error object is the protocol's
      // named one, which packages/server/test/protocol-agreement.test.ts proves equal to the runtime's.
      for (const [field, schema] of Object.entries(wire.shape)) {
        const expected = schema === runtimeWire.errorObjectSchema ? protocol.errorObject : schema;
        expect((event.shape as Record<string, unknown>)[field], `${type}.${field}`).toBe(expected);
      }
    }
    expect(protocol.runEventSchemas.error.shape.error).toBe(protocol.errorObject);
    expect(protocol.toolTrace).toBe(runtimeWire.toolTraceSchema);
    expect(protocol.runMetadata).toBe(runtimeWire.metadataSchema);
    expect(protocol.usage).toBe(runtimeWire.usageSchema);
  });
});
