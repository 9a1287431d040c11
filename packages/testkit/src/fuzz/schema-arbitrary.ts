import fc from 'fast-check';
import type { JsonSchema } from './openapi.ts';

/** Strings that have broken servers before: traversal, control bytes, huge, unicode edge cases, JSON-ish. */
export const nastyStrings: readonly string[] = [
  '',
  ' ',
  '..',
  '../../etc/passwd',
  '%2e%2e%2f',
  '\u0000',
  '\ud800',
  '\uffff',
  '🙂'.repeat(50),
  'a'.repeat(10_000),
  '{"__proto__":{"polluted":1}}',
  '__proto__',
  'constructor',
  'null',
  'NaN',
  '-1',
  '1e309',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '$(touch /tmp/pwned)',
  '\r\nX-Injected: 1',
];

/** Any JSON value, including the wrong type for whatever field it lands in. */
export function anyJson(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 31), [], {}),
    fc.constantFrom(...nastyStrings),
    fc.string({ maxLength: 40 }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
  );
}

function typeOf(schema: JsonSchema): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type !== undefined) return type;
  if (schema.properties !== undefined) return 'object';
  return undefined;
}

/**
 * Values that mostly fit `schema` (so requests get past validation and reach the handlers), with a
 * one-in-six chance at every level of something that does not.
 */
export function fromSchema(schema: JsonSchema, known: Known = {}, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fitting(schema, known, depth), weight: 5 },
    { arbitrary: anyJson(), weight: 1 },
  );
}

/** Real values by field or parameter name (a workdir that exists, a run id), offered beside generated ones. */
export type Known = Record<string, string[]>;

/** A field named in `known` mostly gets one of its real values. */
export function field(name: string, schema: JsonSchema, known: Known, depth = 0): fc.Arbitrary<unknown> {
  const real = known[name] ?? [];
  if (real.length === 0) return fromSchema(schema, known, depth);
  return fc.oneof(
    { arbitrary: fc.constantFrom(...real), weight: 3 },
    { arbitrary: fromSchema(schema, known, depth), weight: 1 },
  );
}

function fitting(schema: JsonSchema, known: Known, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((alternative) => fitting(alternative, known, depth)));
  }
  if (schema.allOf !== undefined && schema.allOf.length > 0)
    return fitting(Object.assign({}, ...schema.allOf), known, depth);
  switch (typeOf(schema)) {
    case 'string':
      return fc.oneof(
        fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 60, 60) }),
        fc.constantFrom(...nastyStrings),
      );
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(fromSchema(schema.items ?? {}, known, depth + 1), {
            maxLength: Math.min(schema.maxItems ?? 4, 4),
          });
    case 'object': {
      if (depth > 3) return fc.constant({});
      const properties = schema.properties ?? {};
      const required = schema.required ?? [];
      const record = fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([key, value]) => [key, field(key, value, known, depth + 1)]),
        ),
        { requiredKeys: required.filter((key) => key in properties) },
      );
      return record;
    }
    default:
      return anyJson();
  }
}
