import { isDeepStrictEqual } from 'node:util';

// The OpenAPI document's named schemas as client generators read them best: one name for each, only those
// the document uses, and none of the shapes zod's conversion leaves that generators read wrong.

type JsonObject = Record<string, unknown>;

interface Operation {
  requestBody?: { required?: boolean; content?: JsonObject };
  [key: string]: unknown;
}

export interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonObject> };
}

/**
 * Tidies the components fastify-type-provider-zod added for a registry's schemas. `roots` are components
 * kept though no path refers to them (the WebSocket messages).
 */
export function tidyComponents(document: OpenApiDocument, roots: string[]): void {
  const schemas = document.components?.schemas ?? {};
  optionalBodies(document);
  mergeInputVariants(document, roots);
  const used = reachable(schemas, [...refsIn(document.paths), ...roots]);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
  unwrapRefs(document, schemas);
  defaultsInWords(document, roots);
}

/**
 * A `.nullish()` body (a route that may get none) is an optional body, not a nullable one: said so, its
 * schema the named one it wraps.
 */
function optionalBodies(document: OpenApiDocument): void {
  for (const operation of operationsOf(document)) {
    const media = operation.requestBody?.content?.['application/json'] as { schema?: JsonObject } | undefined;
    const schema = media?.schema ?? {};
    const wrapped = schema.allOf as JsonObject[] | undefined;
    const keys = Object.keys(schema).sort().join();
    if (!media || !operation.requestBody || keys !== 'allOf,nullable' || wrapped?.length !== 1) continue;
    media.schema = wrapped[0];
    operation.requestBody.required = false;
  }
}

const input = 'Input';

/**
 * The type provider emits each named schema twice, as read (`NameInput`: defaults optional) and as sent
 * (`Name`). A schema the document uses one way only, or the same both ways, keeps the plain name. Repeated
 * until nothing changes: merging an inner schema can make the ones around it equal.
 */
function mergeInputVariants(document: OpenApiDocument, roots: string[]): void {
  const schemas = document.components?.schemas ?? {};
  for (let merged = true; merged; ) {
    merged = false;
    const used = reachable(schemas, [...refsIn(document.paths), ...roots]);
    for (const name of Object.keys(schemas)) {
      const plain = name.slice(0, -input.length);
      if (!name.endsWith(input) || !used.has(name) || !(plain in schemas)) continue;
      const variant = schemas[name] as JsonObject;
      if (used.has(plain) && !isDeepStrictEqual(schemas[plain], variant)) continue;
      schemas[plain] = variant;
      delete schemas[name];
      replaceRefs(document, name, plain);
      merged = true;
    }
  }
}

/**
 * How zod wraps a named schema beside a keyword: `{allOf: [{$ref}]}`, alone, is the schema itself; with
 * `nullable`, OpenAPI 3.0 wants a `type` beside it (without one, `nullable` means nothing): the named schema's.
 */
function unwrapRefs(value: unknown, schemas: Record<string, JsonObject>): void {
  if (Array.isArray(value)) for (const each of value) unwrapRefs(each, schemas);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const schema = value as JsonObject;
  const [only, ...more] = (schema.allOf as JsonObject[] | undefined) ?? [];
  const ref = typeof only?.$ref === 'string' && more.length === 0 ? only.$ref : undefined;
  if (ref && Object.keys(schema).length === 1) {
    delete schema.allOf;
    schema.$ref = ref;
  } else if (ref && schema.nullable === true && schema.type === undefined) {
    const type = schemas[ref.slice(componentPath.length)]?.type;
    if (type !== undefined) schema.type = type;
  }
  for (const child of Object.values(schema)) unwrapRefs(child, schemas);
}

/**
 * openapi-typescript reads a property with a `default` as always there, true of an answer, not of a
 * request (it spares bodies written inline, not named ones): in the schemas only request bodies use, each
 * default is said in words.
 */
function defaultsInWords(document: OpenApiDocument, roots: string[]): void {
  const schemas = document.components?.schemas ?? {};
  const operations = operationsOf(document);
  const bodies = reachable(
    schemas,
    operations.flatMap((operation) => [...refsIn(operation.requestBody)]),
  );
  const elsewhere = operations.flatMap(({ requestBody: _body, ...rest }) => [...refsIn(rest)]);
  const answers = reachable(schemas, [...elsewhere, ...roots]);
  for (const name of bodies) if (!answers.has(name)) forEachSchema(schemas[name], describeDefault);
}

function describeDefault(schema: JsonObject): void {
  if (!('default' in schema)) return;
  const words = `Default: ${JSON.stringify(schema.default)}.`;
  schema.description = schema.description ? `${schema.description} ${words}` : words;
  delete schema.default;
}

/** `visit` on a schema and each schema inside it (by keyword: a property named `default` is no keyword). */
function forEachSchema(schema: unknown, visit: (schema: JsonObject) => void): void {
  if (typeof schema !== 'object' || schema === null) return;
  const object = schema as JsonObject;
  visit(object);
  for (const child of Object.values((object.properties as JsonObject | undefined) ?? {})) {
    forEachSchema(child, visit);
  }
  for (const key of ['items', 'additionalProperties', 'not']) forEachSchema(object[key], visit);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    for (const child of (object[key] as unknown[] | undefined) ?? []) forEachSchema(child, visit);
  }
}

const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.values(document.paths ?? {}).flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => methods.has(method))
      .map(([, operation]) => operation),
  );
}

const componentPath = '#/components/schemas/';

/** The components `roots` name and those they refer to, however deep. */
function reachable(schemas: Record<string, JsonObject>, roots: Iterable<string>): Set<string> {
  const found = new Set<string>();
  const visit = (name: string) => {
    if (found.has(name) || !(name in schemas)) return;
    found.add(name);
    for (const each of refsIn(schemas[name])) visit(each);
  };
  for (const name of roots) visit(name);
  return found;
}

function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const each of value) refsIn(each, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(componentPath)) {
        found.add(child.slice(componentPath.length));
      } else refsIn(child, found);
    }
  }
  return found;
}

function replaceRefs(value: unknown, from: string, to: string): void {
  if (Array.isArray(value)) for (const each of value) replaceRefs(each, from, to);
  else if (typeof value === 'object' && value !== null) {
    const object = value as JsonObject;
    for (const [key, child] of Object.entries(object)) {
      if (key === '$ref' && child === `${componentPath}${from}`) object[key] = `${componentPath}${to}`;
      else replaceRefs(child, from, to);
    }
  }
}
