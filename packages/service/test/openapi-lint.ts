// What keeps a service's OpenAPI document easy for client generators (issue #40): Redocly's `recommended`
// rules without an error, every operation named and summed up, every body a named schema.
import { createConfig, lintFromString } from '@redocly/openapi-core';

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> };
  responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}

export interface OpenApiDocument {
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

const methods = new Set(['get', 'put', 'post', 'delete', 'patch']);

/** Every operation of the document as `METHOD /path` with its object. */
export function operations(document: OpenApiDocument): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => methods.has(method))
      .map(([method, operation]): [string, Operation] => [`${method.toUpperCase()} ${path}`, operation]),
  );
}

/** Redocly's `recommended` errors, each as `rule at pointer: message`. */
export async function redoclyErrors(document: OpenApiDocument): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({
    source: JSON.stringify(document),
    absoluteRef: 'openapi.json',
    config,
  });
  return problems
    .filter((problem) => problem.severity === 'error')
    .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`);
}

/**
 * What a generator would trip on beyond Redocly's rules: an operation without a unique `operationId`, a
 * `summary` or a tag the document describes; a JSON body (request, or answer) that is not a `$ref` to a
 * named schema; a success listed as `2XX` rather than the status the route answers; no `servers`.
 */
export function generatorProblems(document: OpenApiDocument): string[] {
  const problems: string[] = [];
  if ((document.servers ?? []).length === 0) problems.push('no servers');
  const described = new Set((document.tags ?? []).filter((tag) => tag.description).map((tag) => tag.name));
  const ids = new Map<string, string>();
  const schemas = document.components?.schemas ?? {};
  const isNamed = (schema: { $ref?: string } | undefined) =>
    schema?.$ref?.startsWith('#/components/schemas/') === true &&
    schema.$ref.slice('#/components/schemas/'.length) in schemas;
  for (const [route, operation] of operations(document)) {
    const id = operation.operationId;
    if (!id || !/^[a-z][A-Za-z]*$/.test(id)) problems.push(`${route}: operationId ${id} is not camelCase`);
    else if (ids.has(id)) problems.push(`${route}: operationId ${id} is also ${ids.get(id)}'s`);
    else ids.set(id, route);
    if (!operation.summary) problems.push(`${route}: no summary`);
    if (!operation.tags?.length) problems.push(`${route}: no tags`);
    for (const tag of operation.tags ?? []) {
      if (!described.has(tag)) problems.push(`${route}: tag ${tag} is not described at the top`);
    }
    const body = operation.requestBody?.content?.['application/json']?.schema;
    if (operation.requestBody && !isNamed(body))
      problems.push(`${route}: request body is not a named schema`);
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (!/^\d{3}$/.test(status)) problems.push(`${route}: response ${status} is not an exact status`);
      const json = response.content?.['application/json'];
      if (json && !isNamed(json.schema)) problems.push(`${route}: ${status} body is not a named schema`);
    }
  }
  return problems;
}
