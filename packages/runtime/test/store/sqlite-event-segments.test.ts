// The SQLite store's events in segments (migrations.ts entry 9, store/sqlite/event-queries.ts): a database of
// the previous schema migrates with its events readable, pages read back in order across segment boundaries,
// and the cursors a connection keeps in memory give way to every other writer.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { NewRun, RunStore } from '../../src/store/contract.ts';
import { openSqlite } from '../../src/store/sqlite/database.ts';
import { eventsPerSegment } from '../../src/store/sqlite/event-queries.ts';
import { openSqliteRunStore, SqliteRunStore } from '../../src/store/sqlite/index.ts';
import { migrations } from '../../src/store/sqlite/migrations.ts';

const newRun: NewRun = { session_id: null, workdir: '/w', prompt: 'p', workflow: null, input: {} };
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('SQLite events in segments', () => {
  let dir: string;
  let path: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-event-segments-'));
    path = join(dir, 'keel.db');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Every event of a run, read in pages of `limit`. */
  async function readAll(store: RunStore, runId: string, limit: number): Promise<number[]> {
    const seqs: number[] = [];
    for (let after = 0; ; ) {
      const page = await store.listEventTexts!(runId, { after, limit });
      if (page.length === 0) return seqs;
      seqs.push(...page.map((event) => event.seq));
      after = page.at(-1)!.seq;
    }
  }

  test('a database of the previous schema migrates: its events read back and appends continue', async () => {
    // The schema as the previous release left it, with events written as it wrote them: one row per event
    // in (run_id, seq), the cursor in the run's row. Runs' events interleave, as runs writing together do.
    const old = new DatabaseSync(path);
    old.exec(migrations.slice(0, 8).join(';\n'));
    old.exec(`PRAGMA user_version = 8`);
    const counts: Record<string, number> = { run_a: 1200, run_b: 0, run_c: 3 };
    for (const id of Object.keys(counts))
      old
        .prepare(
          `INSERT INTO runs (id, status, workdir, prompt, last_seq, created_at, updated_at)
           VALUES (?, 'running', '/w', 'p', ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:05.000Z')`,
        )
        .run(id, counts[id]!);
    const insert = old.prepare(
      `INSERT INTO run_events (id, run_id, seq, type, data, created_at) VALUES (?, ?, ?, 'tick', ?, ?)`,
    );
    old.exec('BEGIN');
    for (let seq = 1; seq <= 1200; seq++)
      for (const id of ['run_c', 'run_a'])
        if (seq <= counts[id]!)
          insert.run(
            `evt_${id}_${seq}`,
            id,
            seq,
            JSON.stringify({ type: 'tick', run: id, seq }),
            '2026-01-01T00:00:05.000Z',
          );
    old.exec('COMMIT');
    old.close();

    const store = openSqliteRunStore(path);
    try {
      for (const [id, count] of Object.entries(counts)) {
        const run = await store.getRun(id);
        expect(run.last_seq).toBe(count);
        expect(run.updated_at).toBe('2026-01-01T00:00:05.000Z');
        expect(await readAll(store, id, 500)).toEqual(range(1, count));
      }
      const [first] = await store.listEvents('run_a', { after: 0, limit: 1 });
      expect(first).toEqual({
        id: 'evt_run_a_1',
        run_id: 'run_a',
        seq: 1,
        type: 'tick',
        event: { type: 'tick', run: 'run_a', seq: 1 },
        created_at: '2026-01-01T00:00:05.000Z',
      });
      expect((await store.listEvents('run_c', { after: 1 })).map((event) => event.event)).toEqual([
        { type: 'tick', run: 'run_c', seq: 2 },
        { type: 'tick', run: 'run_c', seq: 3 },
      ]);
      // Appends continue each run's sequence, and a checkpoint takes the cursor.
      expect(await store.appendEvent('run_a', { type: 'next' })).toBe(1201);
      expect(await store.appendEvent('run_b', { type: 'next' })).toBe(1);
      expect(await store.appendEvent('run_c', { type: 'next' })).toBe(4);
      expect((await store.saveCheckpoint({ run_id: 'run_a', step_id: null, state: {} })).seq).toBe(1201);
      expect(await readAll(store, 'run_a', 1000)).toEqual(range(1, 1201));
      expect((await store.listEvents('run_a', { after: 1199 })).map((event) => event.type)).toEqual([
        'tick',
        'next',
      ]);
    } finally {
      await store.close();
    }
    const reopened = new DatabaseSync(path);
    const { user_version } = reopened.prepare('PRAGMA user_version').get() as { user_version: number };
    reopened.close();
    expect(user_version).toBe(migrations.length);
  });

  test('runs writing together span many segments; every page after every cursor reads in order', async () => {
    const store = openSqliteRunStore(path);
    try {
      const runs = await Promise.all(range(1, 3).map(() => store.createRun(newRun)));
      const lone = await store.createRun(newRun);
      const perRun = 3000;
      // Three runs' appends in flight together (one commit per turn, interleaved), then one run alone.
      await Promise.all(
        range(1, perRun).flatMap((i) => runs.map((run) => store.appendEvent(run.id, { type: 'tick', i }))),
      );
      const loneCount = 2 * eventsPerSegment + 5;
      await Promise.all(range(1, loneCount).map((i) => store.appendEvent(lone.id, { type: 'tick', i })));

      const reader = new DatabaseSync(path);
      const segments = (runId: string) =>
        (
          reader
            .prepare('SELECT first_seq FROM run_segments WHERE run_id = ? ORDER BY first_seq')
            .all(runId) as {
            first_seq: number;
          }[]
        ).map((row) => row.first_seq);
      try {
        for (const run of [...runs, lone]) {
          const count = run === lone ? loneCount : perRun;
          const starts = segments(run.id);
          expect(starts.length).toBeGreaterThan(1);
          expect(starts[0]).toBe(1);
          expect((await store.getRun(run.id)).last_seq).toBe(count);
          expect(await readAll(store, run.id, 1000)).toEqual(range(1, count));
          expect(await readAll(store, run.id, 7)).toEqual(range(1, count));
          // Cursors on and around each segment's first event, and pages that end inside the next segment.
          for (const start of starts)
            for (const after of [start - 2, start - 1, start, start + 1].filter((after) => after >= 0))
              for (const limit of [1, 3, 2000]) {
                const page = await store.listEvents(run.id, { after, limit });
                expect(page.map((event) => event.seq)).toEqual(
                  range(after + 1, Math.min(count, after + limit)),
                );
                expect(page.map((event) => event.event.i)).toEqual(page.map((event) => event.seq));
              }
          expect(await store.listEvents(run.id, { after: count })).toEqual([]);
        }
        // The lone run's segments hold eventsPerSegment events each.
        expect(segments(lone.id)).toEqual([1, eventsPerSegment + 1, 2 * eventsPerSegment + 1]);
      } finally {
        reader.close();
      }
    } finally {
      await store.close();
    }
  }, 60_000);

  test("cursors kept in memory give way to another connection's appends", async () => {
    const store = openSqliteRunStore(path);
    const other = openSqliteRunStore(path);
    try {
      const run = await store.createRun(newRun);
      const neighbour = await store.createRun(newRun);
      expect(await store.appendEvent(run.id, { type: 'a' })).toBe(1);
      // The other connection writes the same run, and enough of another to move every run to a new segment.
      expect(await other.appendEvent(run.id, { type: 'b' })).toBe(2);
      await Promise.all(
        range(1, eventsPerSegment).map((i) => other.appendEvent(neighbour.id, { type: 'n', i })),
      );
      expect(await store.appendEvent(run.id, { type: 'c' })).toBe(3);
      expect(await other.appendEvent(run.id, { type: 'd' })).toBe(4);
      expect(await store.appendEvent(neighbour.id, { type: 'n' })).toBe(eventsPerSegment + 1);
      expect((await store.listEvents(run.id)).map((event) => [event.seq, event.type])).toEqual([
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
        [4, 'd'],
      ]);
      expect(await readAll(store, neighbour.id, 1000)).toEqual(range(1, eventsPerSegment + 1));
    } finally {
      await other.close();
      await store.close();
    }
  });

  test('stores sharing one connection share its cursors', async () => {
    const db = openSqlite(path);
    const first = new SqliteRunStore(db);
    const second = new SqliteRunStore(db);
    try {
      const run = await first.createRun(newRun);
      const seqs: number[] = [];
      for (let i = 0; i < 6; i++)
        seqs.push(await (i % 2 === 0 ? first : second).appendEvent(run.id, { type: 't' }));
      expect(seqs).toEqual(range(1, 6));
      expect((await second.getRun(run.id)).last_seq).toBe(6);
    } finally {
      await first.close();
      await second.close();
      db.close();
    }
  });

  test("a run's updated_at is its last event's time when that is later than its own change", async () => {
    let now = Date.parse('2026-11-28T10:00:00.000Z');
    const store = openSqliteRunStore(path, { now: () => new Date(now) });
    try {
      const run = await store.createRun(newRun);
      expect(run.updated_at).toBe('2026-11-28T10:00:00.000Z');
      now += 5000;
      await store.appendEvent(run.id, { type: 'tick' });
      expect((await store.getRun(run.id)).updated_at).toBe('2026-11-28T10:00:05.000Z');
      now += 5000;
      const moved = await store.transition(run.id, { from: ['queued'], to: 'running' });
      expect(moved).toMatchObject({ updated_at: '2026-11-28T10:00:10.000Z', last_seq: 1 });
      expect((await store.listRuns())[0]).toMatchObject({
        updated_at: '2026-11-28T10:00:10.000Z',
        last_seq: 1,
      });
    } finally {
      await store.close();
    }
  });
});
