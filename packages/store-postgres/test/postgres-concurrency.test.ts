import pg from 'pg';
import { describe, expect, test } from 'vitest';
import type { PostgresRunStore } from '../src/index.ts';
import { createPostgresStore } from '../src/index.ts';
import { dropSchema, openTestStore, pgUrl, randomSchema } from './pg-test-store.ts';

// Two stores on one schema, each with its own pool: as far as PostgreSQL can tell, two worker processes.

const newRun = { session_id: null, workdir: '/repo', prompt: 'p', workflow: null, input: {} };

/** Resolves once `count` calls have happened, or fails after the timeout. */
function callCounter(timeoutMs = 5000) {
  let calls = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  return {
    listener: () => {
      calls++;
      for (const waiter of waiters.filter((each) => calls >= each.count)) waiter.resolve();
    },
    get calls() {
      return calls;
    },
    reach(count: number): Promise<void> {
      if (calls >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${calls} of ${count} calls`)), timeoutMs);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        waiters.push({ count, resolve: done });
      });
    },
  };
}

describe.skipIf(!pgUrl)('PostgresRunStore across processes', () => {
  const url = pgUrl!;

  test('two workers racing claimNext over 100 queued runs claim each exactly once', async () => {
    const { store, reopen, cleanup } = await openTestStore(url);
    try {
      const other = await reopen();
      const created = [];
      for (let i = 0; i < 100; i++) created.push((await store.createRun(newRun)).id);
      const drain = async (worker: PostgresRunStore, owner: string) => {
        const claimed: string[] = [];
        for (;;) {
          const run = await worker.claimNext({ owner, leaseMs: 60_000 });
          if (!run) return claimed;
          expect(run).toMatchObject({ status: 'running', lease_owner: owner });
          claimed.push(run.id);
        }
      };
      const results = await Promise.all([
        drain(store, 'a:1:x'),
        drain(store, 'a:2:y'),
        drain(other, 'b:1:z'),
        drain(other, 'b:2:w'),
      ]);
      const all = results.flat();
      expect(all).toHaveLength(100);
      expect(new Set(all).size).toBe(100);
      expect([...all].sort()).toEqual([...created].sort());
      expect(await store.listRuns({ status: 'queued' })).toEqual([]);
    } finally {
      await cleanup();
    }
  });

  test('concurrent appends from two pools keep seq gapless', async () => {
    const { store, reopen, cleanup } = await openTestStore(url);
    try {
      const other = await reopen();
      const run = await store.createRun(newRun);
      const appends = [];
      for (let i = 0; i < 100; i++) {
        appends.push(store.appendEvent(run.id, { type: 'a', i }));
        appends.push(other.appendEvent(run.id, { type: 'b', i }));
      }
      const seqs = await Promise.all(appends);
      const expected = Array.from({ length: 200 }, (_, index) => index + 1);
      expect([...seqs].sort((x, y) => x - y)).toEqual(expected);
      const stored = await other.listEvents(run.id);
      expect(stored.map((record) => record.seq)).toEqual(expected);
      expect((await store.getRun(run.id)).last_seq).toBe(200);
    } finally {
      await cleanup();
    }
  });

  test('subscribe hears an event and a status change made through the other pool', async () => {
    const { store, reopen, cleanup } = await openTestStore(url);
    try {
      const other = await reopen();
      const run = await store.createRun(newRun);
      const quiet = await store.createRun(newRun);
      const heard = callCounter();
      const unrelated = callCounter();
      const stop = store.subscribe(run.id, heard.listener);
      const stopQuiet = store.subscribe(quiet.id, unrelated.listener);

      // No wait for a "ready" signal: the store listens from the moment it opens.
      await other.appendEvent(run.id, { type: 'run_started' });
      await heard.reach(1);
      await other.claimRun(run.id, { owner: 'w', leaseMs: 1000 });
      await heard.reach(2);
      await other.transition(run.id, { from: ['running'], to: 'succeeded' });
      await heard.reach(3);
      expect(unrelated.calls).toBe(0);

      stop();
      stopQuiet();
      // A last change on the quiet run, heard by a fresh listener: the earlier ones have had their turn.
      const last = callCounter();
      const stopLast = store.subscribe(quiet.id, last.listener);
      await other.appendEvent(quiet.id, { type: 'late' });
      await last.reach(1);
      stopLast();
      expect(heard.calls).toBe(3);
      expect(unrelated.calls).toBe(0);
    } finally {
      await cleanup();
    }
  });

  test('migration is idempotent when several stores start on a new schema at once', async () => {
    const schema = randomSchema();
    const stores: PostgresRunStore[] = [];
    try {
      stores.push(...(await Promise.all([1, 2, 3, 4].map(() => createPostgresStore({ url, schema })))));
      stores.push(await createPostgresStore({ url, schema }));
      const run = await stores[0]!.createRun(newRun);
      expect((await stores[4]!.getRun(run.id)).id).toBe(run.id);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const versions = await client.query(
        `SELECT version FROM "${schema}".schema_migrations ORDER BY version`,
      );
      await client.end();
      // Every migration applied once, in order, up to the newest (projects and tasks are version 3).
      const applied = versions.rows.map((row: { version: number }) => row.version);
      expect(applied).toEqual(applied.map((_: number, index: number) => index + 1));
      expect(applied.length).toBeGreaterThanOrEqual(3);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await dropSchema(url, schema);
    }
  });

  test('a lease is measured by the database clock: expired, another worker may claim the run', async () => {
    const { store, reopen, cleanup } = await openTestStore(url);
    try {
      const other = await reopen();
      const run = await store.createRun(newRun);
      const first = await store.claimRun(run.id, { owner: 'a', leaseMs: 1 });
      expect(first?.lease_owner).toBe('a');
      // Poll (no fixed sleep) until the one-millisecond lease has passed on the database's clock.
      let taken = null;
      for (let i = 0; i < 100 && !taken; i++) {
        taken = await other.claimRun(run.id, { owner: 'b', leaseMs: 60_000, from: ['running'] });
      }
      expect(taken).toMatchObject({ status: 'running', lease_owner: 'b' });
      expect(await store.renewLease(run.id, { owner: 'a', leaseMs: 1000 })).toBe(false);
      expect(await other.renewLease(run.id, { owner: 'b', leaseMs: 1000 })).toBe(true);
      expect(await store.claimRun(run.id, { owner: 'c', leaseMs: 1000, from: ['running'] })).toBeNull();
    } finally {
      await cleanup();
    }
  });
});

describe.skipIf(!pgUrl)('createPostgresStore', () => {
  test('an unreachable database is a STORE_ERROR that does not show the password', async () => {
    const error = await createPostgresStore({ url: 'postgres://keel:hunter2@127.0.0.1:1/none' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'STORE_ERROR' });
    expect((error as Error).message).not.toContain('hunter2');
  });

  test('a schema name that is not a plain identifier is refused', async () => {
    await expect(createPostgresStore({ url: pgUrl!, schema: 'x"; drop' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
    });
  });
});
