import fc from 'fast-check';
import type { Operation } from './openapi.ts';
import { field, fromSchema, type Known, nastyStrings } from './schema-arbitrary.ts';

/** One request the fuzzer sends, as plain data so a failure can be printed and replayed. */
export interface FuzzRequest {
  /** The operation it targets (`POST /run`), or what a hand-written one tries. */
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** Real values by path parameter, query parameter or body field name, so requests reach past lookups. */
export type KnownValues = Known;

function asQueryValue(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function pathValue(name: string, known: KnownValues): fc.Arbitrary<string> {
  const real = known[name] ?? [];
  return fc.oneof(
    ...(real.length > 0 ? [{ arbitrary: fc.constantFrom(...real), weight: 3 }] : []),
    { arbitrary: fc.constantFrom(...nastyStrings.filter((s) => s.length > 0 && s.length < 1000)), weight: 1 },
    { arbitrary: fc.string({ minLength: 1, maxLength: 30 }), weight: 1 },
  );
}

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

/** Bodies no schema describes: broken JSON, deep nesting, a huge document, bytes that are not UTF-8. */
const rawBodies: fc.Arbitrary<{ body: string | Uint8Array; type: string }> = fc.constantFrom(
  { body: '{', type: 'application/json' },
  { body: '{"a":1,}', type: 'application/json' },
  { body: '', type: 'application/json' },
  { body: 'null', type: 'application/json' },
  { body: '[]', type: 'application/json' },
  { body: '"text"', type: 'application/json' },
  { body: deep(5_000), type: 'application/json' },
  { body: JSON.stringify({ prompt: 'x'.repeat(3_000_000) }), type: 'application/json' },
  {
    body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    type: 'application/json',
  },
  { body: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
  { body: 'plain words', type: 'text/plain' },
  { body: '{"a":1}', type: 'application/json; charset=latin1' },
  { body: '<x/>', type: 'application/xml' },
);

/** Requests for one operation: mostly schema-shaped, some with raw bodies. */
export function requestsFor(operation: Operation, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  const path = fc
    .tuple(...operation.pathParams.map((name) => pathValue(name, known)))
    .map((values) =>
      operation.pathParams.reduce(
        (built, name, index) =>
          built.replace(`{${name}}`, encodeURIComponent((values[index] ?? '').toWellFormed())),
        operation.path,
      ),
    );
  const query = fc
    .tuple(
      ...operation.query.map((param) =>
        param.required
          ? field(param.name, param.schema, known)
          : fc.option(field(param.name, param.schema, known), { nil: undefined }),
      ),
    )
    .map((values) => {
      const search = new URLSearchParams();
      operation.query.forEach((param, index) => {
        if (values[index] !== undefined) search.set(param.name, asQueryValue(values[index]));
      });
      const text = search.toString();
      return text === '' ? '' : `?${text}`;
    });
  const takesBody = operation.method !== 'GET' && operation.method !== 'DELETE';
  const body: fc.Arbitrary<{ body?: string | Uint8Array; type?: string }> = !takesBody
    ? fc.constant({})
    : fc.oneof(
        {
          arbitrary: fromSchema(operation.body ?? {}, known).map((v) => ({
            body: JSON.stringify(v) ?? 'null',
            type: 'application/json',
          })),
          weight: 6,
        },
        { arbitrary: rawBodies, weight: 1 },
        { arbitrary: fc.constant({}), weight: 1 },
      );
  return fc.tuple(path, query, body).map(
    ([p, q, b]): FuzzRequest => ({
      label: `${operation.method} ${operation.path}`,
      method: operation.method,
      path: `${p}${q}`,
      headers: b.type === undefined ? {} : ({ 'content-type': b.type } as Record<string, string>),
      ...(b.body === undefined ? {} : { body: b.body }),
    }),
  );
}

/** Hand-written requests that are about the server, not one operation. */
export function serviceNasties(): FuzzRequest[] {
  const list: Omit<FuzzRequest, 'label'>[] = [
    { method: 'GET', path: '/no/such/route', headers: {} },
    { method: 'DELETE', path: '/health', headers: {} },
    { method: 'PATCH', path: '/health', headers: {} },
    { method: 'OPTIONS', path: '/health', headers: {} },
    { method: 'GET', path: `/${'a'.repeat(70_000)}`, headers: {} },
    { method: 'GET', path: `/health?${'q='.repeat(20_000)}`, headers: {} },
    { method: 'GET', path: '/%ff%fe', headers: {} },
    { method: 'GET', path: '/%00', headers: {} },
    { method: 'GET', path: '/health', headers: { 'x-long': 'v'.repeat(30_000) } },
    { method: 'GET', path: '/health', headers: { authorization: `Bearer ${'t'.repeat(5_000)}` } },
    { method: 'POST', path: '/health', headers: { 'content-type': 'application/json' }, body: '{' },
  ];
  return list.map((request) => ({
    label: `hand-written ${request.method} ${request.path.slice(0, 40)}`,
    ...request,
  }));
}
