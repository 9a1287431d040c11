// The SQLite store's group commit (store/sqlite/event-appender.ts): appends waiting together are written
// in one transaction, yet each run's events stay gapless and in call order, an append's promise settles
// only once its event is committed, and nobody (the caller, a subscriber, another connection) ever sees an
// event that is not stored.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { KeelError } from '../../src/errors/index.ts';
import type { NewRun } from '../../src/store/contract.ts';
import { openSqlite } from '../../src/store/sqlite/database.ts';
import { openSqliteRunStore, SqliteRunStore } from '../../src/store/sqlite/index.ts';
import { prepareStatements } from '../../src/store/sqlite/statements.ts';

const newRun: NewRun = { session_id: null, workdir: '/w', prompt: 'p', workflow: null, input: {} };

describe('SQLite group commit', () => {
  let dir: string;
  let path: string;
  /** A second connection, as another process has: what it sees is what is committed. */
  let reader: DatabaseSync;
  const stored = (runId: string): number[] =>
    (
      reader.prepare('SELECT seq FROM run_events WHERE run_id = ? ORDER BY seq').all(runId) as {
        seq: number;
      }[]
    ).map((row) => row.seq);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-group-commit-'));
    path = join(dir, 'keel.db');
    openSqlite(path).close();
    reader = new DatabaseSync(path);
  });

  afterEach(async () => {
    reader.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('appends in flight at once are numbered in call order and settle only once committed', async () => {
    // A poll far slower than the test: any notification seen here came from the commit itself.
    const store = openSqliteRunStore(path, { pollMs: 60_000 });
    try {
      const run = await store.createRun(newRun);
      const heard: number[][] = [];
      const stop = store.subscribe(run.id, () => heard.push(stored(run.id)));
      const settledSeeing: number[][] = [];
      const appends = Array.from({ length: 300 }, (_, i) =>
        store.appendEvent(run.id, { type: 'tick', i }).then((seq) => {
          settledSeeing.push(stored(run.id));
          return seq;
        }),
      );
      // Queued, not yet written: no other connection (no follower) can see any of them.
      expect(stored(run.id)).toEqual([]);
      const seqs = await Promise.all(appends);
      expect(seqs).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
      // When each promise settled, its event (and all before it) was already stored.
      settledSeeing.forEach((seen, index) => {
        expect(seen.length).toBeGreaterThanOrEqual(index + 1);
      });
      // The subscriber was told at once, and only after the events were stored.
      expect(heard.length).toBeGreaterThanOrEqual(1);
      expect(heard[0]!.length).toBeGreaterThanOrEqual(1);
      const records = await store.listEvents(run.id);
      expect(records.map((record) => record.event.i)).toEqual(Array.from({ length: 300 }, (_, i) => i));
      stop();
    } finally {
      await store.close();
    }
  });

  test('many runs with several appenders each stay gapless, each appender in its own order', async () => {
    const store = openSqliteRunStore(path);
    const second = openSqliteRunStore(path);
    try {
      const runs = await Promise.all(Array.from({ length: 20 }, () => store.createRun(newRun)));
      const perWriter = 40;
      const writers = runs.flatMap((run) =>
        ['a', 'b', 'c'].map((name) => ({ run, name, handle: name === 'c' ? second : store })),
      );
      const returned = await Promise.all(
        writers.map(async ({ run, name, handle }) => {
          const seqs: number[] = [];
          for (let i = 0; i < perWriter; i++)
            seqs.push(await handle.appendEvent(run.id, { type: 'tick', name, i }));
          return seqs;
        }),
      );
      for (const run of runs) {
        const records = await store.listEvents(run.id);
        expect(records.map((record) => record.seq)).toEqual(
          Array.from({ length: 3 * perWriter }, (_, i) => i + 1),
        );
        expect((await store.getRun(run.id)).last_seq).toBe(3 * perWriter);
        writers.forEach((writer, index) => {
          if (writer.run.id !== run.id) return;
          const mine = records.filter((record) => record.event.name === writer.name);
          expect(mine.map((record) => record.event.i)).toEqual(
            Array.from({ length: perWriter }, (_, i) => i),
          );
          expect(mine.map((record) => record.seq)).toEqual(returned[index]);
        });
      }
    } finally {
      await second.close();
      await store.close();
    }
  });

  test('appends of many runs made together are one commit, each run numbered in call order', async () => {
    // A clock that moves on at every reading: events stored by one commit share its time, and no other.
    let tick = Date.parse('2026-11-23T10:00:00Z');
    const store = openSqliteRunStore(path, { now: () => new Date(tick++), pollMs: 60_000 });
    try {
      const runs = await Promise.all(Array.from({ length: 300 }, () => store.createRun(newRun)));
      const odd = 'run_"quoted\\and\u00e9';
      const appends = [0, 1].flatMap((round) =>
        runs.map((run, index) => store.appendEvent(run.id, { type: 'tick', round, index })),
      );
      const missing = store.appendEvent(odd, { type: 'lost' });
      const seqs = await Promise.all(appends);
      expect(seqs).toEqual([...runs.map(() => 1), ...runs.map(() => 2)]);
      await expect(missing).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
      const times = reader
        .prepare(
          'SELECT DISTINCT created_at FROM run_events WHERE run_id IN (SELECT value FROM json_each(?))',
        )
        .all(JSON.stringify(runs.map((run) => run.id)));
      expect(times).toHaveLength(1);
      for (const [index, run] of runs.entries()) {
        const records = await store.listEvents(run.id);
        expect(records.map((record) => [record.seq, record.event.round, record.event.index])).toEqual([
          [1, 0, index],
          [2, 1, index],
        ]);
        expect((await store.getRun(run.id)).last_seq).toBe(2);
      }
    } finally {
      await store.close();
    }
  });

  test('where runs stand, and their events, are found by key however many runs there are', () => {
    const db = openSqlite(path);
    try {
      // Many runs with segments, and the statistics that tell the planner so.
      db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
               INSERT INTO runs (id, status, workdir, prompt, created_at, updated_at)
               SELECT 'run_' || i, 'queued', '/w', 'p', '', '' FROM n;
               WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
               INSERT INTO run_segments (run_id, first_seq, seg) SELECT 'run_' || i, 1, i FROM n;
               ANALYZE;`);
      const { eventCursors, listEventTexts, listEvents } = prepareStatements(db);
      const planOf = (statement: typeof eventCursors, params: Record<string, string | number>) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${statement.sourceSQL}`).all(params) as { detail: string }[]).map(
          (step) => step.detail,
        );
      const cursors = planOf(eventCursors, { ids: '[]' });
      expect(cursors.some((detail) => /^SEARCH r USING .*\(id=\?\)/.test(detail))).toBe(true);
      expect(
        cursors.some((detail) => /^SEARCH c USING PRIMARY KEY \(run_id=\? AND first_seq=\?\)/.test(detail)),
      ).toBe(true);
      for (const plan of [
        cursors,
        planOf(listEvents, { run_id: 'run_1', after: 0, limit: 10 }),
        planOf(listEventTexts, { run_id: 'run_1', after: 0, limit: 10 }),
      ]) {
        // No table walked whole, and no page of events sorted: segments and events are read in key order.
        expect(plan.some((detail) => /^SCAN (runs|r|run_segments|s|run_events|e)\b/.test(detail))).toBe(
          false,
        );
        expect(plan.some((detail) => /TEMP B-TREE/.test(detail))).toBe(false);
      }
    } finally {
      db.close();
    }
  });

  test('an unknown run fails only its own appends; the rest of the batch is stored', async () => {
    const store = openSqliteRunStore(path);
    try {
      const run = await store.createRun(newRun);
      const results = await Promise.allSettled([
        store.appendEvent(run.id, { type: 'a' }),
        store.appendEvent('run_missing', { type: 'b' }),
        store.appendEvent(run.id, { type: 'c' }),
      ]);
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const reason = (results[1] as PromiseRejectedResult).reason;
      expect(KeelError.is(reason) && reason.code).toBe('RUN_NOT_FOUND');
      expect((await store.listEvents(run.id)).map((record) => record.type)).toEqual(['a', 'c']);
    } finally {
      await store.close();
    }
  });

  test('a batch that cannot be committed fails every append in it as STORE_ERROR and stores none', async () => {
    const db = openSqlite(path);
    db.exec('PRAGMA busy_timeout = 20');
    const store = new SqliteRunStore(db);
    try {
      const run = await store.createRun(newRun);
      await store.appendEvent(run.id, { type: 'first' });
      // Another process holds the write lock for longer than this connection waits.
      reader.exec('BEGIN IMMEDIATE');
      const results = await Promise.allSettled([
        store.appendEvent(run.id, { type: 'lost' }),
        store.appendEvent(run.id, { type: 'lost' }),
      ]);
      reader.exec('ROLLBACK');
      for (const result of results) {
        expect(result.status).toBe('rejected');
        const reason = (result as PromiseRejectedResult).reason;
        expect(KeelError.is(reason) && reason.code).toBe('STORE_ERROR');
      }
      // Nothing was written and no number was used up: the next append continues the sequence.
      expect(await store.appendEvent(run.id, { type: 'next' })).toBe(2);
      expect((await store.listEvents(run.id)).map((record) => record.type)).toEqual(['first', 'next']);
    } finally {
      await store.close();
      db.close();
    }
  });

  test('every other operation sees the appends made before it, awaited or not', async () => {
    const store = openSqliteRunStore(path);
    try {
      const run = await store.createRun(newRun);
      const appended = [store.appendEvent(run.id, { type: 'a' }), store.appendEvent(run.id, { type: 'b' })];
      // Not awaited: reads and writes issued after them still come after them.
      const checkpoint = await store.saveCheckpoint({ run_id: run.id, step_id: null, state: {} });
      expect(checkpoint.seq).toBe(2);
      expect((await store.getRun(run.id)).last_seq).toBe(2);
      expect(await Promise.all(appended)).toEqual([1, 2]);
      const late = store.appendEvent(run.id, { type: 'c' });
      await store.close();
      expect(await late).toBe(3);
      expect(stored(run.id)).toEqual([1, 2, 3]);
    } finally {
      await store.close();
    }
  });
});
