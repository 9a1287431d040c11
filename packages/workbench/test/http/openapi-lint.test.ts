// Issue #40: the OpenAPI document is easy for client generators: Redocly's recommended rules pass, every
// operation has an operationId, a summary and a described tag, every body is a named schema, and each
// success is listed under the status the route answers.
import { expect, test } from 'vitest';
import {
  generatorProblems,
  type OpenApiDocument,
  operations,
  redoclyErrors,
} from '../../../service/test/openapi-lint.ts';
import { startWorkbench } from '../harness.ts';

test('the OpenAPI document passes Redocly, names every operation and body, and lists exact statuses', async () => {
  await using wb = await startWorkbench([], { configure: false });
  const document = (await wb.api('GET', '/docs/json')).body as OpenApiDocument;

  expect(await redoclyErrors(document)).toEqual([]);
  expect(generatorProblems(document)).toEqual([]);

  // The statuses the README documents, as the routes answer them.
  const successes = Object.fromEntries(
    operations(document).map(([route, operation]) => [
      route,
      Object.keys(operation.responses ?? {}).filter((status) => status.startsWith('2')),
    ]),
  );
  expect(successes).toMatchObject({
    'POST /api/projects': ['201'],
    'DELETE /api/projects/{id}': ['204'],
    'POST /api/projects/{id}/init': ['202'],
    'POST /api/tasks': ['201'],
    'POST /api/tasks/{id}/plan': ['202'],
    'POST /api/todos/{id}/execute': ['202'],
    'POST /api/tasks/{id}/todos': ['201'],
    'POST /api/sessions/{id}/messages': ['202'],
    'POST /api/conversations/{id}/init': ['201'],
    'GET /api/tasks/{id}': ['200'],
  });
  // A 204 has no body; a route that may get no body says its body is optional.
  expect(document.paths['/api/tasks/{id}']?.delete?.responses?.['204']?.content).toBeUndefined();
  expect(document.paths['/api/tasks/{id}/plan']?.post?.requestBody).toMatchObject({
    required: false,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/MessageRequest' } } },
  });
});
