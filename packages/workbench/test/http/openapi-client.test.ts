// Issue #25: the OpenAPI document is valid by a maintained validator, and a third party can generate a
// typed client from it (openapi-typescript) that type-checks a script of the flow's requests and refuses
// a wrong one.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import { expect, test } from 'vitest';
import { startWorkbench, tempDir } from '../harness.ts';

const tsc = join(import.meta.dirname, '..', '..', '..', '..', 'node_modules', '.bin', 'tsc');

/** The request body type of an operation, as a client script would name it. */
const prelude = `import type { paths } from './workbench';
type JsonBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type Answer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
`;

const good = `${prelude}
const project: JsonBody<'/api/projects', 'post'> = {
  name: 'Greeter',
  repositories: [{ path: '/code/app', type: 'frontend', provider: 'github' }],
};
const task: JsonBody<'/api/tasks', 'post'> = { project_id: 'prj_1', description: 'Add a greeting' };
const message: JsonBody<'/api/tasks/{id}/plan', 'post'> = { message: 'Mention the tests' };
const followUp: JsonBody<'/api/tasks/{id}/follow-up', 'post'> = {
  findings: ['finding_1'],
  merge_request: [{ repository: 'app', check: 'test' }],
};
const submit: JsonBody<'/api/tasks/{id}/submit-mr', 'post'> = { title: 'Greet' };
export const flow = [project, task, message, followUp, submit];

// Answers are typed too: what a script reads of a task, its todos and a session's log.
declare const shown: Answer<'/api/tasks/{id}', 'get'>;
declare const page: Answer<'/api/sessions/{id}/logs', 'get'>;
// A task's state is open on the wire: the spec's states, or one a registered stage adds (GET /api/flow).
const state: string = shown.state;
const titles: string[] = shown.todos.map((todo) => todo.title);
const cursor: number = page.next_cursor;
export const read = [state, titles, cursor];
`;

const bad = `${prelude}
export const project: JsonBody<'/api/projects', 'post'> = {
  name: 'Greeter',
  repositories: [{ path: '/code/app', type: 'mainframe' }],
};
declare const shown: Answer<'/api/tasks/{id}', 'get'>;
export const missing: string = shown.no_such_field;
`;

function typeCheck(dir: string, file: string): { ok: boolean; output: string } {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'nodenext',
        skipLibCheck: true,
      },
      files: [file, 'workbench.d.ts'],
    }),
  );
  try {
    return { ok: true, output: execFileSync(tsc, ['-p', dir], { encoding: 'utf8' }) };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

test('the OpenAPI document validates, and a client generated from it type-checks the flow', {
  timeout: 60_000,
}, async () => {
  await using wb = await startWorkbench([], { configure: false });
  const document = (await wb.api('GET', '/docs/json')).body;

  const validator = new Validator();
  const result = await validator.validate(document);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);

  const dir = tempDir('openapi-client');
  writeFileSync(join(dir, 'workbench.d.ts'), astToString(await openapiTS(document)));
  writeFileSync(join(dir, 'good.ts'), good);
  writeFileSync(join(dir, 'bad.ts'), bad);
  const checked = typeCheck(dir, 'good.ts');
  expect(checked.output).toBe('');
  expect(checked.ok).toBe(true);
  // The generated types are the contract, not `any`: a repository type the API does not know is refused.
  const refused = typeCheck(dir, 'bad.ts');
  expect(refused.ok).toBe(false);
  expect(refused.output).toContain('mainframe');
  expect(refused.output).toContain('no_such_field');
});

test('every route documents the body of its answer under its status, not just "2XX"', async () => {
  await using wb = await startWorkbench([], { configure: false });
  const document = (await wb.api('GET', '/docs/json')).body as {
    paths: Record<
      string,
      Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }> }> }>
    >;
  };
  // An image answers its bytes; a 204 answers nothing, and says so.
  const otherMedia: Record<string, string> = { 'GET /api/tasks/{id}/images/{index}': 'image/*' };
  const undescribed: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const route = `${method.toUpperCase()} ${path}`;
      const [status, success] =
        Object.entries(operation.responses).find(([code]) => code.startsWith('2')) ?? [];
      if (status === '204' && success?.content === undefined) continue;
      const schema = success?.content?.[otherMedia[route] ?? 'application/json']?.schema as
        | { type?: unknown; anyOf?: unknown; oneOf?: unknown; $ref?: unknown }
        | undefined;
      const described = schema && (schema.type ?? schema.anyOf ?? schema.oneOf ?? schema.$ref);
      if (!described) undescribed.push(route);
    }
  }
  expect(undescribed).toEqual([]);
  expect(Object.keys(document.paths).length).toBeGreaterThan(50);
  // The WebSocket's messages, which OpenAPI has no words for, as named schemas the description points to.
  const { components, info } = document as unknown as {
    components: {
      schemas: Record<string, { oneOf?: { properties: { type: { const?: string; enum?: string[] } } }[] }>;
    };
    info: { description: string };
  };
  const types = (name: string) =>
    (components.schemas[name]?.oneOf ?? []).map(
      ({ properties }) => properties.type.const ?? properties.type.enum?.[0],
    );
  expect(types('WsClientMessage')).toEqual(['subscribe', 'unsubscribe', 'chat', 'ping']);
  expect(types('WsServerMessage')).toEqual(
    expect.arrayContaining(['event', 'status', 'queue', 'task', 'subscribed', 'queued', 'pong', 'error']),
  );
  expect(info.description).toContain('WsClientMessage');
});
