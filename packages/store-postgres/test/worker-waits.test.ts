import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '@keel/runtime';
import { startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { jsonLines, startKeel, waitFor } from '../../cli/test/keel-process.ts';
import { createPostgresStore } from '../src/index.ts';
import { dropSchema, pgUrl, randomSchema } from './pg-test-store.ts';

// A `keel worker` started before its database: it waits, saying so, and takes runs once the database is
// there. Here the database "comes up" when the test starts a TCP forwarder to PostgreSQL on the port the
// worker was given.

describe.skipIf(!pgUrl)('a worker whose database is not there yet', () => {
  test('retries with back-off, then takes a queued run once the database answers', async () => {
    const schema = randomSchema();
    const port = await freePort();
    const real = new URL(pgUrl!);
    const late = new URL(pgUrl!);
    late.port = String(port);
    await using model = await startMockModel({ script: [{ text: 'Done late.' }] });
    await using dirs = await tempDirs();
    const env = await fleetEnv(dirs.home, late.toString(), schema, model.url);
    const worker = startKeel(['worker', '--idle-ms', '50', '-w', dirs.workdir], env);
    let forwarder: Server | undefined;
    try {
      await waitFor(() => (worker.output.stderr.match(/Store unreachable/g)?.length ?? 0) >= 2);
      expect(worker.output.stderr).toMatch(/trying again in \d+ ms/);
      expect(worker.child.exitCode).toBeNull();

      // The run is queued on the real port; the worker reaches it only through the forwarder.
      const runtime = createRuntime({
        runtimeDir: await runtimeDirFor(join(dirs.home, 'sdk'), pgUrl!, schema),
        workdir: dirs.workdir,
        model: 'mock-model',
        modelBaseUrl: model.url,
      });
      const run = await runtime.start({ prompt: 'do it', workdir: dirs.workdir }, { execute: false });
      await runtime.close();
      forwarder = await forward(port, real.hostname, Number(real.port || 5432));

      await waitFor(() => worker.output.stdout.includes(`✓ ${run.id}  succeeded`), 30_000);
      expect(worker.output.stderr).toContain('Store reachable again; taking queued runs.');
      const store = await createPostgresStore({ url: pgUrl!, schema });
      expect((await store.getRun(run.id)).status).toBe('succeeded');
      await store.close();
    } finally {
      worker.child.kill('SIGKILL');
      await worker.done;
      forwarder?.close();
      await dropSchema(pgUrl!, schema);
    }
  }, 60_000);

  test('its /health answers 503 with the reason while it waits, then 200; --json says waiting, then ready', async () => {
    const schema = randomSchema();
    const port = await freePort();
    const real = new URL(pgUrl!);
    const late = new URL(pgUrl!);
    late.port = String(port);
    await using model = await startMockModel({ script: [] });
    await using dirs = await tempDirs();
    const env = await fleetEnv(dirs.home, late.toString(), schema, model.url);
    const args = ['worker', '--json', '--idle-ms', '50', '--health-port', '0', '-w', dirs.workdir];
    const worker = startKeel(args, env);
    let forwarder: Server | undefined;
    try {
      const lines = () => jsonLines<Line>(complete(worker.output.stdout));
      await waitFor(() => lines().filter((line) => line.type === 'waiting').length >= 2);
      const [started, waiting] = lines();
      expect(started).toMatchObject({
        type: 'started',
        health: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/),
      });
      expect(waiting).toEqual({
        type: 'waiting',
        reason: expect.stringContaining('ECONNREFUSED'),
        retry_in_ms: 250,
      });
      const before = await fetch(started!.health!);
      expect(before.status).toBe(503);
      expect(await before.json()).toEqual({
        status: 'waiting',
        worker_id: started!.worker_id,
        store: 'unreachable',
        running: 0,
        reason: expect.stringContaining('ECONNREFUSED'),
        retry_in_ms: expect.any(Number),
      });

      forwarder = await forward(port, real.hostname, Number(real.port || 5432));
      await waitFor(() => lines().some((line) => line.type === 'ready'));
      const after = await fetch(started!.health!);
      expect(after.status).toBe(200);
      expect(await after.json()).toEqual({
        status: 'ok',
        worker_id: started!.worker_id,
        store: 'reachable',
        running: 0,
      });
      expect(lines().filter((line) => line.type === 'ready')).toEqual([
        { type: 'ready', worker_id: started!.worker_id },
      ]);
    } finally {
      worker.child.kill('SIGKILL');
      await worker.done;
      forwarder?.close();
      await dropSchema(pgUrl!, schema);
    }
  }, 60_000);

  test('a store that is misconfigured (no such database) is not waited for: the worker exits 1', async () => {
    const wrong = new URL(pgUrl!);
    wrong.pathname = '/keel_no_such_database';
    await using model = await startMockModel({ script: [] });
    await using dirs = await tempDirs();
    const env = await fleetEnv(dirs.home, wrong.toString(), randomSchema(), model.url);
    const outcome = await startKeel(['worker', '-w', dirs.workdir], env).done;
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/Error \[STORE_ERROR\]: .*keel_no_such_database/);
    expect(outcome.stderr).not.toContain('Store unreachable');
  }, 30_000);
});

interface Line {
  type: string;
  worker_id?: string;
  health?: string | null;
}

/** The output up to its last full line (a line may be half written when read). */
function complete(stdout: string): string {
  return stdout.slice(0, stdout.lastIndexOf('\n') + 1);
}

async function tempDirs() {
  const home = await mkdtemp(join(tmpdir(), 'keel-wait-home-'));
  const workdir = await mkdtemp(join(tmpdir(), 'keel-wait-work-'));
  return {
    home,
    workdir,
    async [Symbol.asyncDispose]() {
      await rm(home, { recursive: true, force: true });
      await rm(workdir, { recursive: true, force: true });
    },
  };
}

/** A runtime directory whose config.json names the PostgreSQL store at `url`. */
async function runtimeDirFor(dir: string, url: string, schema: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'config.json'), JSON.stringify({ store: { kind: 'postgres', url, schema } }));
  return dir;
}

async function fleetEnv(home: string, url: string, schema: string, modelUrl: string) {
  await writeFile(join(home, 'config.json'), JSON.stringify({ store: { kind: 'postgres', url, schema } }));
  return { RUNTIME_HOME: home, RUNTIME_MODEL: 'mock-model', RUNTIME_MODEL_BASE_URL: modelUrl };
}

/** A port nothing listens on (taken, then given back). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP forwarder from 127.0.0.1:`port` to host:target: the database "coming up". */
async function forward(port: number, host: string, target: number): Promise<Server> {
  const server = createServer((client) => {
    const upstream = connect(target, host);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
