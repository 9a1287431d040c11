// RuntimeOptions.maxRunning: at most N runs execute in this process at once; the rest stay queued, in the
// order they came, where this process or any worker may take them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, type ScriptedReply, startMockModel } from '@keel/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { createRuntime, type Run, type Runtime, type RuntimeOptions } from '../../src/index.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A turn the test releases by hand. */
function heldTurn(text: string) {
  let release = () => {};
  const until = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { reply: { text, until } satisfies ScriptedReply, release };
}

async function setUp(script: ScriptedReply[], options: Partial<RuntimeOptions>) {
  const model = await startMockModel({ script });
  const runtimeDir = await mkdtemp(join(tmpdir(), 'keel-slots-'));
  const repo = await createTempGitRepo();
  const make = (extra: Partial<RuntimeOptions> = {}): Runtime => {
    const runtime = createRuntime({
      runtimeDir,
      model: 'mock-model',
      modelBaseUrl: model.url,
      env: {},
      ...options,
      ...extra,
    });
    cleanups.push(() => runtime.close());
    return runtime;
  };
  cleanups.push(
    () => model.close(),
    () => repo.remove(),
    () => rm(runtimeDir, { recursive: true, force: true }),
  );
  return { model, make, workdir: repo.path };
}

const statusCount = (runs: Run[]) =>
  Object.fromEntries(
    ['queued', 'running', 'succeeded'].map((status) => [
      status,
      runs.filter((run) => run.status === status).length,
    ]),
  );

describe('maxRunning: a bound on the runs one process executes at once', () => {
  test('six runs started with a bound of two: never more than two execute, the rest wait queued, all succeed', async () => {
    const turns = Array.from({ length: 6 }, (_, index) => heldTurn(`answer ${index + 1}`));
    const { model, make, workdir } = await setUp(
      turns.map((turn) => turn.reply),
      { maxRunning: 2 },
    );
    const runtime = make();
    const started: Run[] = [];
    for (let index = 0; index < 6; index++) {
      started.push(await runtime.start({ prompt: `task ${index + 1}`, workdir }));
    }
    const runs = async () => Promise.all(started.map((run) => runtime.runs.get(run.id)));
    await model.waitForRequests(2);
    expect(statusCount(await runs())).toEqual({ queued: 4, running: 2, succeeded: 0 });
    // Each answer frees one slot, and the next run in line (the oldest queued one) takes it.
    for (let index = 0; index < 4; index++) {
      turns[index]!.release();
      await model.waitForRequests(index + 3);
      const now = await runs();
      expect(now.filter((run) => run.status === 'running')).toHaveLength(2);
      expect(now[index + 2]!.status).toBe('running');
    }
    turns[4]!.release();
    turns[5]!.release();
    const finals = await Promise.all(started.map((run) => runtime.follow(run.id)));
    expect(finals.map((run) => run.status)).toEqual(Array(6).fill('succeeded'));
    expect(model.requests).toHaveLength(6);
  });

  test('a run waiting for a slot stays queued: another worker on the store takes it', async () => {
    const first = heldTurn('first');
    const { model, make, workdir } = await setUp([first.reply, { text: 'second' }], { maxRunning: 1 });
    const server = make();
    const busy = await server.start({ prompt: 'one', workdir });
    await model.waitForRequests(1);
    const waiting = await server.start({ prompt: 'two', workdir });
    expect((await server.runs.get(waiting.id)).status).toBe('queued');
    // A worker process (here: a second runtime on the same store) takes the queued run meanwhile.
    const worker = make({ maxRunning: undefined });
    const outcome = await worker.drive(waiting.id);
    expect(outcome?.run.status).toBe('succeeded');
    first.release();
    expect((await server.follow(busy.id)).status).toBe('succeeded');
    // The server's own turn in line found the run taken, and claimed nothing.
    expect(model.requests).toHaveLength(2);
  });

  test('a run cancelled while it waits for a slot ends cancelled without ever executing', async () => {
    const first = heldTurn('first');
    const { model, make, workdir } = await setUp([first.reply, { text: 'never' }], { maxRunning: 1 });
    const runtime = make();
    const busy = await runtime.start({ prompt: 'one', workdir });
    await model.waitForRequests(1);
    const second = await runtime.start({ prompt: 'two', workdir }, { execute: false });
    const abort = new AbortController();
    // Follows it, as `keel run` does: the follower waits in line for the slot the first run holds.
    const following = runtime.follow(second.id, { after: 0, signal: abort.signal });
    abort.abort();
    expect((await following).status).toBe('cancelled');
    first.release();
    expect((await runtime.follow(busy.id)).status).toBe('succeeded');
    expect(model.requests).toHaveLength(1);
  });

  test('a bound that is not a whole number above 0 is a CONFIG_ERROR saying so', () => {
    for (const maxRunning of [0, -1, 1.5]) {
      expect(() => createRuntime({ runtimeDir: tmpdir(), model: 'm', maxRunning })).toThrow(
        /maxRunning must be a whole number above 0/,
      );
    }
  });
});
