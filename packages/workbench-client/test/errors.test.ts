import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoWithRemote, startWorkbench, tempDir } from '../../workbench/test/harness.ts';
import {
  createWorkbenchClient,
  WorkbenchApiError,
  WorkbenchConnectionError,
  WorkbenchResponseError,
} from '../src/index.ts';

/** The error a call ended with (fails the test when it succeeded). */
async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('refusals from the real service', () => {
  test('a 404 and a 409 become WorkbenchApiError with their code', async () => {
    const root = tempDir('client-errors');
    const repo = repoWithRemote(root, 'app', { 'src/app.js': 'console.log(1);\n' });
    // No model: the project cannot generate its knowledge, so the task stays CREATED.
    await using wb = await startWorkbench([], { configure: false });
    const client = createWorkbenchClient({ baseUrl: wb.base });

    const missing = await failure(client.tasks.get('task_nope'));
    expect(missing).toBeInstanceOf(WorkbenchApiError);
    expect(missing).toMatchObject({
      status: 404,
      code: 'TASK_NOT_FOUND',
      route: 'GET /api/tasks/task_nope',
      details: { task_id: 'task_nope' },
    });
    expect((missing as Error).message).toContain('task_nope');

    const project = await client.projects.create({
      name: 'p',
      repositories: [{ path: repo.dir, type: 'custom' }],
    });
    expect(project.status).toBe('CREATED');
    const task = await client.tasks.create({ project_id: project.id, description: 'A task' });
    const early = await failure(client.tasks.confirmInit(task.id));
    expect(early).toBeInstanceOf(WorkbenchApiError);
    expect(early).toMatchObject({ status: 409, code: 'INVALID_STATE', details: { state: 'CREATED' } });
    expect((early as WorkbenchApiError).details?.allowed).toEqual(expect.arrayContaining(['init', 'cancel']));

    // A 400 names the field the service refused.
    const bad = await failure(client.tasks.create({ project_id: project.id, description: ' ' }));
    expect(bad).toMatchObject({ status: 400, code: 'INVALID_PARAMS' });
    expect((bad as Error).message).toContain('description');

    // The WebSocket's refusal of a subscription: the same error class, with no HTTP status.
    const unknown = await failure(client.sessions.subscribe('wsess_nope', {}));
    expect(unknown).toBeInstanceOf(WorkbenchApiError);
    expect(unknown).toMatchObject({
      status: null,
      code: 'SESSION_NOT_FOUND',
      route: 'WS /api/ws session:wsess_nope',
    });
  });

  test('the API key goes as a bearer over REST and as ?token= on the WebSocket', async () => {
    await using wb = await startWorkbench([], {
      configure: false,
      env: { WORKBENCH_AUTH_API_KEY: 'k-right' },
    });
    const keyed = createWorkbenchClient({ baseUrl: wb.base, apiKey: 'k-right' });
    expect((await keyed.settings.check()).missing).toContain('model');
    const unknown = await failure(keyed.sessions.subscribe('wsess_nope', {}));
    expect(unknown).toMatchObject({ code: 'SESSION_NOT_FOUND' });

    const wrong = createWorkbenchClient({ baseUrl: wb.base, apiKey: 'k-wrong' });
    expect(await failure(wrong.settings.get())).toMatchObject({ status: 401, code: 'AUTHENTICATION_FAILED' });
    expect(await failure(wrong.sessions.subscribe('wsess_any', {}))).toMatchObject({
      status: 401,
      code: 'AUTHENTICATION_FAILED',
    });
  });
});

/** A project as a newer service might answer it: a status the protocol does not know, `error` renamed. */
const driftedProject = {
  id: 'p1',
  name: 'p',
  description: '',
  repositories: [],
  default_runner: null,
  trust_repository_config: false,
  repair_turns: 2,
  run_setup: false,
  review_runner: null,
  status: 'ARCHIVED',
  failure: null,
  created_at: '2026-11-27T00:00:00.000Z',
  updated_at: '2026-11-27T00:00:00.000Z',
};

describe('answers that drifted from the protocol', () => {
  // A stand-in service answering shapes the protocol does not describe.
  const server = createServer((request, response) => {
    if (request.url === '/api/projects/p1') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(driftedProject));
    } else if (request.url === '/api/settings') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>a login page</html>');
    } else {
      response.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway');
    }
  });
  let baseUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('a body its schema does not describe is refused, naming the route and the fields', async () => {
    const client = createWorkbenchClient({ baseUrl });
    const drifted = await failure(client.projects.get('p1'));
    expect(drifted).toBeInstanceOf(WorkbenchResponseError);
    const error = drifted as WorkbenchResponseError;
    expect(error.route).toBe('GET /api/projects/p1');
    expect(error.message).toMatch(/^GET \/api\/projects\/p1 answered a body its schema does not describe: /);
    expect(error.message).toContain('status: Invalid option');
    expect(error.message).toContain('error: Invalid input');
    expect(error.issues.map((issue) => issue.path.join('.'))).toEqual(['status', 'error']);
    expect(error.body).toEqual(driftedProject);

    expect(await failure(client.settings.get())).toMatchObject({
      name: 'WorkbenchResponseError',
      message: 'GET /api/settings answered a body that is not JSON',
    });
    // An error that is not in the service's shape (a proxy's) is still an API error, with its status.
    expect(await failure(client.flow())).toMatchObject({ status: 502, code: 'HTTP_502' });
  });

  test('a WebSocket message its schema does not describe ends the subscription', async () => {
    // A socket that answers the subscribe with an event whose seq is text.
    class DriftedSocket extends EventTarget {
      readonly readyState = 1;
      constructor() {
        super();
        queueMicrotask(() => this.dispatchEvent(new Event('open')));
      }
      send() {
        const message = { type: 'event', channel: 'session:s1', seq: 'one', timestamp: 'now', event: {} };
        this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
      }
      close() {}
    }
    const client = createWorkbenchClient({
      baseUrl,
      webSocket: () => new DriftedSocket() as unknown as WebSocket,
    });
    const drifted = await failure(client.sessions.subscribe('s1', {}));
    expect(drifted).toBeInstanceOf(WorkbenchResponseError);
    expect((drifted as Error).message).toMatch(
      /^WS \/api\/ws session:s1 answered a message its schema does not describe/,
    );
  });

  test('no connection after the allowed attempts is a WorkbenchConnectionError', async () => {
    // The stand-in has no WebSocket: every upgrade fails.
    const client = createWorkbenchClient({
      baseUrl,
      reconnect: { initialDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 },
    });
    const lost = await failure(client.sessions.subscribe('s1', {}));
    expect(lost).toBeInstanceOf(WorkbenchConnectionError);
    expect(lost).toMatchObject({ attempts: 3 });
  });
});
