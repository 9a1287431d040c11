// Issue #40: keel-web's OpenAPI document is easy for client generators: Redocly's recommended rules pass,
// every operation has an operationId, a summary and a described tag, every body is a named schema, and
// each success is listed under the status the route answers.
import { expect, test } from 'vitest';
import {
  generatorProblems,
  type OpenApiDocument,
  operations,
  redoclyErrors,
} from '../../service/test/openapi-lint.ts';
import { startServer } from './harness.ts';

test('the OpenAPI document passes Redocly, names every operation and body, and lists exact statuses', async () => {
  await using s = await startServer([]);
  const document = (await s.api('GET', '/docs/json')).body as OpenApiDocument & {
    components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
  };

  expect(await redoclyErrors(document)).toEqual([]);
  expect(generatorProblems(document)).toEqual([]);

  // The statuses the spec and the README document, as the routes answer them.
  const successes = Object.fromEntries(
    operations(document).map(([route, operation]) => [
      route,
      Object.keys(operation.responses ?? {}).filter((status) => status.startsWith('2')),
    ]),
  );
  expect(successes).toMatchObject({
    'POST /runtime/runs': ['202'],
    'POST /runtime/forks': ['202'],
    'POST /runtime/runs/{id}/input': ['202'],
    'POST /api/projects': ['201'],
    'POST /api/projects/{project_id}/init': ['202'],
    'POST /api/projects/{project_id}/tasks': ['201'],
    'POST /run': ['200'],
  });
  // GET and PUT /config answer the effective configuration, whose keys the document names.
  for (const method of ['get', 'put'] as const) {
    expect(
      document.paths['/config']?.[method]?.responses?.['200']?.content?.['application/json']?.schema,
    ).toEqual({
      $ref: '#/components/schemas/EffectiveConfig',
    });
  }
  expect(Object.keys(document.components.schemas.EffectiveConfig?.properties ?? {})).toEqual(
    expect.arrayContaining(['model', 'model_base_url', 'skills', 'mcp', 'sandbox', 'circuit_breaker']),
  );
});
