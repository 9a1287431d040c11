import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

describe('OpenAPI at /docs', () => {
  test('the document is valid OpenAPI by a maintained validator', async () => {
    await using s = await startServer([]);
    const document = (await s.api('GET', '/docs/json')).body;
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test('the document lists every endpoint with its schemas; the page and its assets are served locally', async () => {
    await using s = await startServer([], { apiKey: 'sekret' });
    // Open without the key, as /health is (spec section 5).
    const document = await s.api('GET', '/docs/json');
    expect(document.status).toBe(200);
    expect(document.body).toMatchObject({
      openapi: expect.stringMatching(/^3\./),
      info: { title: 'Keel runtime API', version: '3.0.1' },
    });
    const paths = Object.keys(document.body.paths);
    for (const path of [
      '/run',
      '/run/stream',
      '/tool',
      '/sessions',
      '/runtime/runs',
      '/runtime/runs/{id}',
      '/runtime/runs/{id}/events',
      '/runtime/forks',
      '/runtime/approvals/{id}/approve',
      '/runtime/audit',
      '/config',
      '/metrics',
    ]) {
      expect(paths).toContain(path);
    }
    // The body is a named schema (issue #40): read it where the `$ref` points.
    const { $ref } = document.body.paths['/runtime/runs'].post.requestBody.content['application/json'].schema;
    const start = document.body.components.schemas[$ref.replace('#/components/schemas/', '')];
    expect(start).toMatchObject({ required: expect.arrayContaining(['prompt', 'workdir']) });

    const page = await fetch(`${s.base}/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    // Every asset the page loads comes from this server: the docs work offline.
    expect(html).not.toMatch(/src="https?:\/\//);
    const css = await fetch(`${s.base}/docs/static/swagger-ui.css`);
    expect(css.status).toBe(200);
    // Read to its end: an unread response keeps its connection busy, and the server's close waits for it.
    expect((await css.text()).length).toBeGreaterThan(1000);
    expect((await s.api('GET', '/runtime/runs')).status).toBe(401);
  });
});

test('every route documents the body of its answer, not just "2XX"', async () => {
  await using s = await startServer([]);
  const document = (await s.api('GET', '/docs/json')).body as {
    paths: Record<
      string,
      Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }> }> }>
    >;
  };
  // Answers that are not JSON: the event streams (each `data:` line a run event) and an artifact's payload.
  const otherMedia: Record<string, string> = {
    'GET /runtime/runs/{id}/events': 'text/event-stream',
    'POST /run/stream': 'text/event-stream',
    'GET /runtime/artifacts/{id}/content': '*/*',
  };
  const undescribed: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const route = `${method.toUpperCase()} ${path}`;
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
      const schema = success?.content?.[otherMedia[route] ?? 'application/json']?.schema as
        | { type?: unknown; anyOf?: unknown; oneOf?: unknown; $ref?: unknown }
        | undefined;
      const described = schema && (schema.type ?? schema.anyOf ?? schema.oneOf ?? schema.$ref);
      if (!described) undescribed.push(route);
    }
  }
  expect(undescribed).toEqual([]);
  // `POST /run` answers the run result, or the event stream with `"stream": true`.
  expect(Object.keys(document.paths['/run']?.post?.responses['200']?.content ?? {}).sort()).toEqual([
    'application/json',
    'text/event-stream',
  ]);
  expect(Object.keys(document.paths).length).toBeGreaterThan(40);
});

test("the WebSockets' messages are components of the document, named in its description", async () => {
  await using s = await startServer([]);
  const document = (await s.api('GET', '/docs/json')).body;
  const schemas = document.components.schemas as Record<string, { oneOf?: { properties: object }[] }>;
  const types = (name: string) =>
    (schemas[name]?.oneOf ?? []).map(
      (option) => (option.properties as { type: { enum?: string[]; const?: string } }).type,
    );
  const names = (name: string) => types(name).map((type) => type.const ?? type.enum?.[0]);
  expect(names('WsClientMessage').sort()).toEqual([
    'cancel',
    'ping',
    'run',
    'submit_interaction',
    'user_input',
  ]);
  expect(names('WsChatClientMessage').sort()).toEqual(names('WsClientMessage').sort());
  const server = names('WsServerMessage');
  for (const type of [
    'start',
    'resuming',
    'pong',
    'error',
    'text_delta',
    'tool_call',
    'interaction_request',
    'done',
  ]) {
    expect(server).toContain(type);
  }
  expect(server).not.toContain('session_start');
  expect(names('WsChatServerMessage').sort()).toEqual([...server, 'ready'].sort());
  // Each run event carries its seq.
  const done = schemas.WsServerMessage?.oneOf?.[server.indexOf('done')];
  expect(done).toMatchObject({ required: expect.arrayContaining(['seq', 'session_id', 'output']) });
  for (const name of ['WsClientMessage', 'WsServerMessage', 'WsChatClientMessage', 'WsChatServerMessage']) {
    expect(document.info.description).toContain(name);
  }
  expect(document.info.description).toContain('WS /ws');
});
