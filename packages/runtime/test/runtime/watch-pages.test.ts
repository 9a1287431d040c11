// runs.watchPages: a run's events replayed and followed a page at a time, as stored JSON text. Every event
// must arrive exactly once and in order across page boundaries, while the run is still being written (from
// this handle or another connection), from any cursor, and through a store that cannot hand out JSON text.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { RunsApi } from '../../src/runtime/runs-api.ts';
import type { NewRun, RunEventText, RunStore } from '../../src/store/contract.ts';
import { openSqliteRunStore, type SqliteRunStore } from '../../src/store/sqlite/index.ts';

const newRun: NewRun = { session_id: null, workdir: '/w', prompt: 'p', workflow: null, input: {} };

async function collect(pages: AsyncIterable<RunEventText[]>, sizes: number[] = []): Promise<RunEventText[]> {
  const all: RunEventText[] = [];
  for await (const page of pages) {
    sizes.push(page.length);
    all.push(...page);
  }
  return all;
}

/** The store with `listEventTexts` hidden, as a store that does not offer it (PostgreSQL) looks. */
function withoutTexts(store: RunStore): RunStore {
  return new Proxy(store, {
    get: (target, key) => {
      if (key === 'listEventTexts') return undefined;
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('runs.watchPages', () => {
  let dir: string;
  let store: SqliteRunStore;
  let writer: SqliteRunStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-watch-pages-'));
    store = openSqliteRunStore(join(dir, 'keel.db'), { pollMs: 10 });
    writer = openSqliteRunStore(join(dir, 'keel.db'), { pollMs: 10 });
  });

  afterEach(async () => {
    await writer.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const append = (target: RunStore, runId: string, from: number, count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        target.appendEvent(runId, { type: 'tick', i: from + i, text: 'é"\n' }),
      ),
    );

  for (const [name, view] of [
    ['as stored', (each: RunStore) => each],
    ['through listEvents', withoutTexts],
  ] as const) {
    test(`replays a finished run exactly once, page by page, from any cursor (${name})`, async () => {
      const runs = new RunsApi(async () => view(store));
      const run = await store.createRun(newRun);
      await append(store, run.id, 1, 100);
      await store.transition(run.id, { from: ['queued'], to: 'succeeded' });
      const sizes: number[] = [];
      const all = await collect(runs.watchPages(run.id, { limit: 7 }), sizes);
      expect(all.map((event) => event.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      expect(sizes).toEqual([...Array.from({ length: 14 }, () => 7), 2]);
      expect(all.map((event) => JSON.parse(event.json))).toEqual(
        Array.from({ length: 100 }, (_, i) => ({ type: 'tick', i: i + 1, text: 'é"\n' })),
      );
      expect(all.every((event) => event.type === 'tick')).toBe(true);
      for (const after of [0, 6, 7, 8, 99, 100]) {
        const tail = await collect(runs.watchPages(run.id, { after, limit: 7 }));
        expect(tail.map((event) => event.seq)).toEqual(
          Array.from({ length: 100 - after }, (_, i) => after + i + 1),
        );
      }
    });
  }

  test('follows a run being written by another connection until it ends, every event once', async () => {
    const runs = new RunsApi(async () => store);
    const run = await store.createRun(newRun);
    await append(writer, run.id, 1, 25);
    const followed = collect(runs.watchPages(run.id, { limit: 10 }));
    // Live appends from the other connection, in bursts, while the follower pages through.
    for (let burst = 0; burst < 20; burst++) await append(writer, run.id, 26 + burst * 13, 13);
    await writer.transition(run.id, { from: ['queued'], to: 'succeeded' });
    const all = await followed;
    expect(all.map((event) => event.seq)).toEqual(Array.from({ length: 285 }, (_, i) => i + 1));
    expect(all.map((event) => JSON.parse(event.json).i)).toEqual(
      Array.from({ length: 285 }, (_, i) => i + 1),
    );
  });

  test('a hundred followers of one live run each get every event once', async () => {
    const runs = new RunsApi(async () => store);
    const run = await store.createRun(newRun);
    const followers = Array.from({ length: 100 }, (_, index) =>
      collect(runs.watchPages(run.id, { limit: 50, ...(index % 2 ? { after: 0 } : {}) })),
    );
    for (let burst = 0; burst < 30; burst++) await append(store, run.id, 1 + burst * 17, 17);
    await store.transition(run.id, { from: ['queued'], to: 'succeeded' });
    const expected = Array.from({ length: 510 }, (_, i) => i + 1);
    for (const follower of await Promise.all(followers))
      expect(follower.map((event) => event.seq)).toEqual(expected);
  });

  test('stops when the signal aborts, and an unknown run is RUN_NOT_FOUND', async () => {
    const runs = new RunsApi(async () => store);
    const run = await store.createRun(newRun);
    await append(store, run.id, 1, 3);
    const controller = new AbortController();
    const seen: number[] = [];
    const following = (async () => {
      for await (const page of runs.watchPages(run.id, { signal: controller.signal })) {
        seen.push(...page.map((event) => event.seq));
        if (seen.length === 3) controller.abort();
      }
    })();
    await following;
    expect(seen).toEqual([1, 2, 3]);
    await expect(collect(runs.watchPages('run_missing'))).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
  });
});
